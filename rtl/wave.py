#!/usr/bin/env python3
"""A VCD's signals drawn as a waveform PNG (matplotlib).

Usage: python3 wave.py VCD PNG SCOPE SIGNAL... [--from NS] [--to NS]

SCOPE is the instance path (for example tb_fdfm.dut); each SIGNAL a name in
it. One-bit signals are drawn as levels, wider ones as buses with their
value in hexadecimal.
"""

import argparse

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def read_vcd(path, scope, names):
    """{name: [(time, value as int or None)]} for the signals of `scope`."""
    ids, width, changes, stack, t = {}, {}, {}, [], 0
    with open(path, encoding="ascii", errors="replace") as f:
        tokens = iter(f.read().split())
        for tok in tokens:
            if tok == "$scope":
                next(tokens)
                stack.append(next(tokens))
            elif tok == "$upscope":
                stack.pop()
            elif tok == "$var":
                _kind, w, code, name = next(tokens), int(next(tokens)), next(tokens), next(tokens)
                if ".".join(stack) == scope and name in names:
                    ids[code] = name
                    width[name] = w
                    changes[name] = []
            elif tok.startswith("#"):
                t = int(tok[1:])
            elif tok[0] in "01xz" and tok[1:] in ids:
                changes[ids[tok[1:]]].append((t, None if tok[0] in "xz" else int(tok[0])))
            elif tok[0] == "b":
                code = next(tokens)
                if code in ids:
                    bits = tok[1:]
                    changes[ids[code]].append((t, None if any(c in "xz" for c in bits) else int(bits, 2)))
    return changes, width


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("vcd")
    ap.add_argument("png")
    ap.add_argument("scope")
    ap.add_argument("signals", nargs="+")
    ap.add_argument("--from", dest="start", type=int, default=0)
    ap.add_argument("--to", dest="end", type=int, default=None)
    ap.add_argument("--title", default="")
    ap.add_argument("--xlabel", default="time (the VCD's units)")
    a = ap.parse_args()
    changes, width = read_vcd(a.vcd, a.scope, set(a.signals))
    missing = [s for s in a.signals if s not in changes]
    if missing:
        raise SystemExit(f"wave.py: {', '.join(missing)}: not in scope {a.scope} of {a.vcd}")
    end = a.end if a.end is not None else max(t for ch in changes.values() for t, _ in ch)
    fig, ax = plt.subplots(figsize=(14, 0.55 * len(a.signals) + 1.0))
    for row, name in enumerate(a.signals):
        y = len(a.signals) - 1 - row
        pts = [(t, v) for t, v in changes[name] if t <= end]
        before = [p for p in pts if p[0] <= a.start]
        pts = ([(a.start, before[-1][1])] if before else []) + [p for p in pts if p[0] > a.start]
        spans = [(t, pts[k + 1][0] if k + 1 < len(pts) else end, v) for k, (t, v) in enumerate(pts)]
        for t0, t1, v in spans:
            if width[name] == 1:
                level = y + (0.7 if v else 0.1)
                ax.plot([t0, t1], [level, level], color="tab:blue", lw=1.2)
                ax.plot([t0, t0], [y + 0.1, y + 0.7], color="tab:blue", lw=0.6)
            else:
                ax.fill_between([t0, t1], y + 0.1, y + 0.7, color="tab:green" if v else "whitesmoke", alpha=0.25)
                ax.plot([t0, t1, t1, t0, t0], [y + 0.1, y + 0.1, y + 0.7, y + 0.7, y + 0.1], color="tab:green", lw=0.6)
                if t1 - t0 >= (end - a.start) / 40:
                    label = "x" if v is None else f"{v:x}"
                    ax.text((t0 + t1) / 2, y + 0.4, label, ha="center", va="center", fontsize=7, family="monospace")
        ax.text(a.start - (end - a.start) * 0.01, y + 0.4, name, ha="right", va="center", fontsize=9, family="monospace")
    ax.set_xlim(a.start, end)
    ax.set_ylim(-0.2, len(a.signals))
    ax.set_yticks([])
    ax.set_xlabel(a.xlabel)
    ax.set_title(a.title, fontsize=10)
    for side in ("top", "right", "left"):
        ax.spines[side].set_visible(False)
    fig.tight_layout()
    fig.savefig(a.png, dpi=110)


if __name__ == "__main__":
    main()
