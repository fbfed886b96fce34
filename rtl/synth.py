#!/usr/bin/env python3
"""The synthesis table: every design synthesized by Yosys at the papers'
sizes, twice (generic gates with `synth`, and Virtex-6 primitives with
`synth_xilinx -family xc6v`), beside the papers' own area figures.

Both flatten the design first. Usage: python3 synth.py [--out FILE] [--only TOP ...]
       (writes Markdown to stdout and FILE; --only: just these top modules)

Columns: generic flip-flops and other gate cells, the longest path in gate
levels (Yosys `ltp -noff`, flip-flop to flip-flop, a logic-depth estimate,
not a timing analysis); then the Virtex-6 mapping's LUTs, flip-flops,
DSP48E1 slices, LUT-RAM and block RAMs. The papers' columns come from
their tables (different tools, devices and, for 001, the whole CRT core):
the point is the shape (one multiplier against a datapath as wide as n).
"""

import argparse
import re
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent

# (design, sources, top, parameter, value for bits, paper's figure by bits, other parameters)
DESIGNS = [
    (
        "001 FDFM (fdfm_mm)",
        "fdfm/fdfm_mm.v",
        "fdfm_mm",
        "D",
        lambda bits: -(-(bits + 3) // 17),
        # 001 Table 1, one core (the whole CRT decryption core, any size up to 2176 bits).
        lambda bits: "140 slices, 1 DSP48E1, 1 BRAM (Table 1, whole core)",
        "",
    ),
    (
        "001 FDFM with Alg. 2 (fdfm_exp)",
        "fdfm/fdfm_exp.v fdfm/fdfm_mm.v",
        "fdfm_exp",
        "D",
        lambda bits: -(-(bits + 3) // 17),
        lambda bits: "140 slices, 1 DSP48E1, 1 BRAM (Table 1, whole core)",
        "EW",
    ),
    (
        "002 Blum-Paar array (blum_paar_array, k = 4)",
        "blum_paar/blum_paar_array.v",
        "blum_paar_array",
        "M",
        lambda bits: -(-bits // 4),
        # 002 Table 1, radix 16 (Xilinx XC4000 CLBs, the whole exponentiator).
        lambda bits: {512: "3,413 CLBs", 1024: "6,633 CLBs"}[bits] + " (Table 1, whole exponentiator)",
        "",
    ),
    (
        "003 radix-2 carry-save (csa_r2)",
        "carry_save/csa_r2.v",
        "csa_r2",
        "K",
        lambda bits: bits,
        # 003 Table I, Algo1 (Virtex-II).
        lambda bits: {512: "5,782 slices", 1024: "11,520 slices", 2048: "23,108 slices"}.get(bits, "-") + " (Table I)",
        "",
    ),
]
DESIGNS.append(
    (
        "003 radix-4 carry-save (csa_r4)",
        "carry_save/csa_r4.v",
        "csa_r4",
        "K",
        lambda bits: bits,
        # 003 Table I, Algo2 (Virtex-4).
        lambda bits: {512: "4,187 slices", 1024: "8,724 slices", 2048: "17,520 slices"}.get(bits, "-") + " (Table I)",
        "",
    )
)
DESIGNS.append(
    (
        "004 systolic array (perin_systolic, k = 16)",
        "perin/perin_systolic.v perin/perin_control.v",
        "perin_systolic",
        "M",
        # Table 1's m = n/k (moduli of up to n - 2 bits).
        lambda bits: bits // 16,
        lambda bits: {512: "3,205 slices, 68 DSP48E", 1024: "6,642 slices, 130 DSP48E"}[bits] + " (Table 1, Virtex-5)",
        "",
    )
)
DESIGNS.append(
    (
        "004 multiplexed array (perin_multiplexed, k = 16)",
        "perin/perin_multiplexed.v perin/perin_control.v",
        "perin_multiplexed",
        "M",
        lambda bits: bits // 16,
        lambda bits: {512: "2,078 slices, 32 DSP48E", 1024: "4,876 slices, 64 DSP48E"}[bits] + " (Table 1, Virtex-5)",
        "",
    )
)
SIZES = {"fdfm_mm": [512, 1024, 2048], "fdfm_exp": [1024], "blum_paar_array": [512, 1024], "csa_r2": [512, 1024], "csa_r4": [512, 1024], "perin_systolic": [512, 1024], "perin_multiplexed": [512, 1024]}


def yosys(script):
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "stat.txt"
        subprocess.run(
            ["yosys", "-q", "-p", script.replace("@OUT@", str(out))], check=True, cwd=HERE / "carry_save"
        )
        return out.read_text()


def cells(stat):
    """{cell type: count} from a `stat` report."""
    return {m[1]: int(m[2]) for m in re.finditer(r"^\s+(\S+)\s+(\d+)$", stat, re.M) if not m[1].startswith("Number")}


def row(name, src, top, param, value, bits, paper, exp_param):
    """One design at one size; `exp_param` (if any) is set to `bits` too
    (the exponent's length)."""
    extra = f"chparam -set {exp_param} {bits} {top}; " if exp_param else ""
    files = " ".join(str(HERE / f) for f in src.split())
    base = f"read_verilog {files}; chparam -set {param} {value} {top}; {extra}"
    # Flattened, so a design split into modules (fdfm_exp over fdfm_mm, the
    # arrays over perin_control) is optimized as a whole.
    generic = yosys(base + f"synth -flatten -top {top}; tee -q -o @OUT@ stat; tee -q -a @OUT@ ltp -noff")
    g = cells(generic)
    ffs = sum(v for k, v in g.items() if "DFF" in k)
    gates = sum(v for k, v in g.items() if "DFF" not in k)
    depth = re.search(r"length=(\d+)", generic)
    x = cells(yosys(base + f"synth_xilinx -flatten -family xc6v -top {top}; tee -q -o @OUT@ stat"))
    pick = lambda pred: sum(v for k, v in x.items() if pred(k))
    luts = pick(lambda k: re.fullmatch(r"LUT\d", k) is not None)
    xffs = pick(lambda k: k.startswith("FD"))
    dsps = pick(lambda k: k.startswith("DSP"))
    lutram = pick(lambda k: k.startswith("RAM") and not k.startswith("RAMB"))
    bram = pick(lambda k: k.startswith("RAMB"))
    return (
        f"| {name} | {bits} | {param} = {value} | {ffs:,} | {gates:,} | {depth[1] if depth else '?'} "
        f"| {luts:,} | {xffs:,} | {dsps} | {lutram} | {bram} | {paper(bits)} |"
    )


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", type=Path, help="also write the table to this file")
    ap.add_argument("--only", nargs="+", choices=sorted(SIZES), help="synthesize just these top modules")
    args = ap.parse_args()
    version = subprocess.run(["yosys", "-V"], capture_output=True, text=True, check=True).stdout.strip()
    lines = [
        f"Generated by `make -C rtl synth` with {version}.",
        "",
        "| design | bits | parameter | generic FFs | generic gates | longest path (gate levels) "
        "| xc6v LUTs | xc6v FFs | DSP48E1 | LUT-RAM | BRAM | the paper |",
        "|---|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---|",
    ]
    for name, src, top, param, value, paper, exp_param in DESIGNS:
        if args.only and top not in args.only:
            continue
        for bits in SIZES[top]:
            lines.append(row(name, src, top, param, value(bits), bits, paper, exp_param))
            print(lines[-1], file=sys.stderr)
    text = "\n".join(lines) + "\n"
    sys.stdout.write(text)
    if args.out:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text(text)


if __name__ == "__main__":
    main()
