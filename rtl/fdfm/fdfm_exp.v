`timescale 1ns / 1ps
// 001 §3, Alg. 2: the FDFM core's left-to-right exponentiation, a
// controller over fdfm_mm (Alg. 3) that chains its products with no clock
// between them, as redc's golden model counts them
// (crates/redc-hw/src/fdfm/exp.rs):
//
//   line 1  C  = MM(R2, 1)          X bank 1, Y bank 2, S bank 4
//   line 2  P~ = MM(R2, P)          X bank 1, Y bank 3, S bank 5
//   lines 3-6, for each bit of E from the top (bit ebits-1 down to 0):
//           C = MM(C, C);  if the bit is 1, C = MM(C, P~)
//   line 7  C  = MM(C, 1)
//
// with R2 = 2^(34D) mod M. C moves between banks 4 and 6 (a product never
// writes the bank it reads). (3 + |E| + popcount(E)) products of
// 2D^2 + 8D + 4 clocks each, counted from the clock edge after `start` to
// the edge that raises `done`. The output, in bank `cbank`, is P^E mod M or,
// when that is 0, possibly M itself (the last product lands in [0, M]); the
// host maps M to 0.
//
// Banks the host loads (port as fdfm_mm's) before `start`: 0 M, 1 R2,
// 2 the number 1, 3 the base P (below 2M). `e` and `ebits` are sampled at
// `start`; ebits = 0 runs lines 1, 2 and 7 only.
module fdfm_exp #(
    parameter integer D   = 4,                 // digits: 17*D >= bits(M) + 2
    parameter integer EW  = 64,                // the longest exponent, bits
    parameter integer AW  = $clog2(D + 1),
    parameter integer EBW = $clog2(EW + 1)
) (
    input  wire           clk,
    input  wire           rst,
    input  wire           start,
    input  wire [16:0]    minv,
    input  wire [EW-1:0]  e,
    input  wire [EBW-1:0] ebits,
    input  wire           we,
    input  wire [2:0]     wbank,
    input  wire [AW-1:0]  waddr,
    input  wire [16:0]    wdata,
    input  wire [AW-1:0]  raddr,
    input  wire [2:0]     rbank,
    output wire [16:0]    rdata,
    output reg            busy,
    output reg            done,
    output reg  [2:0]     cbank,     // the bank of the output once done
    output reg  [31:0]    products   // products run (Alg. 3 calls)
);
    localparam [2:0] INIT1 = 3'd0, INIT2 = 3'd1, SQ = 3'd2, MUL = 3'd3, FINAL = 3'd4;
    localparam [2:0] B_R2 = 3'd1, B_ONE = 3'd2, B_P = 3'd3, B_CA = 3'd4, B_PM = 3'd5, B_CB = 3'd6;

    reg [2:0]     op;      // the product running
    reg [EBW-1:0] b;       // its exponent bit (SQ, MUL)
    reg [2:0]     cur;     // the bank holding C
    reg [EW-1:0]  er;
    reg [EBW-1:0] ebr;

    wire mm_busy, mm_done, mm_last;

    // What follows `op` when it ends: the next operation and bit, and the
    // bank of C once `op` has written it.
    reg [2:0]     nop;
    reg [EBW-1:0] nb;
    reg           ends;
    wire [2:0]    other = (cur == B_CA) ? B_CB : B_CA;
    wire [2:0]    ncur  = (op == INIT1) ? B_CA : (op == INIT2) ? cur : other;
    always @(*) begin
        nop = FINAL; nb = b; ends = 1'b0;
        case (op)
            INIT1: nop = INIT2;
            INIT2: if (ebr != {EBW{1'b0}}) begin nop = SQ; nb = ebr - 1'b1; end
            // b < ebits <= EW: in range (b is as wide as ebits).
            /* verilator lint_off WIDTH */
            SQ:    if (er[b]) nop = MUL;
            /* verilator lint_on WIDTH */
                   else if (b != {EBW{1'b0}}) begin nop = SQ; nb = b - 1'b1; end
            MUL:   if (b != {EBW{1'b0}}) begin nop = SQ; nb = b - 1'b1; end
            default: ends = 1'b1;
        endcase
    end

    // The banks of the product that starts now: line 1 from idle, else the
    // one after `op`.
    wire [2:0] sop = busy ? nop : INIT1;
    wire [2:0] sc  = busy ? ncur : B_CA;
    wire [2:0] soth = (sc == B_CA) ? B_CB : B_CA;
    reg  [2:0] xb, yb, sb;
    always @(*) begin
        case (sop)
            INIT1:   begin xb = B_R2; yb = B_ONE; sb = B_CA; end
            INIT2:   begin xb = B_R2; yb = B_P;   sb = B_PM; end
            SQ:      begin xb = sc;   yb = sc;    sb = soth; end
            MUL:     begin xb = sc;   yb = B_PM;  sb = soth; end
            default: begin xb = sc;   yb = B_ONE; sb = soth; end
        endcase
    end

    wire mm_start = busy ? (mm_last && !ends) : start;

    fdfm_mm #(.D(D)) mm (
        .clk(clk), .rst(rst), .start(mm_start), .xb(xb), .yb(yb), .sb(sb), .minv(minv),
        .we(we), .wbank(wbank), .waddr(waddr), .wdata(wdata), .raddr(raddr), .rbank(rbank),
        .rdata(rdata), .busy(mm_busy), .done(mm_done), .last(mm_last),
        /* verilator lint_off PINCONNECTEMPTY */
        .t(), .q(), .ca(), .alpha(), .cb(), .cg(), .cs(), .sw()
        /* verilator lint_on PINCONNECTEMPTY */
    );

    always @(posedge clk) begin
        if (rst) begin
            busy <= 1'b0;
            done <= 1'b0;
            cbank <= B_CA;
            products <= 32'd0;
        end else if (!busy) begin
            if (start) begin
                busy <= 1'b1;
                done <= 1'b0;
                op <= INIT1;
                b <= {EBW{1'b0}};
                er <= e;
                ebr <= ebits;
                products <= 32'd0;
            end
        end else if (mm_last) begin
            products <= products + 32'd1;
            cur <= ncur;
            if (ends) begin
                busy <= 1'b0;
                done <= 1'b1;
                cbank <= ncur;
            end else begin
                op <= nop;
                b <= nb;
            end
        end
    end

    // The multiplier's busy and done go unused: the controller steps on last.
    wire unused = mm_busy ^ mm_done;
endmodule
