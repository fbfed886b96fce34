`timescale 1ns / 1ps
// 001 §5.1, Alg. 3: the FDFM core's radix-2^17 digit-serial Montgomery
// multiplier (Ito, Nakano, Song, "The Parallel FDFM Processor Core Approach
// for CRT-based RSA Decryption"), clock for clock the schedule of redc's
// golden model (crates/redc-hw/src/fdfm/datapath.rs):
//
//   per outer iteration i (Y's digits, i = 0 .. D-1):
//     T      t  = (X_0*Y_i + S_(i,0)) mod 2^17                      line 3
//     Q      q  = t*minv mod 2^17; Ca = Cb = Cg = Cs = 0            lines 3-4
//     4 waits (6 clocks for q in all, as in 5.1.1)
//     per inner step j = 0 .. D (X_D = M_D = S_(i,D) = 0):
//       XY   {Ca : alpha} = X_j*Y_i + Ca                            line 6
//       QM   {Cb : beta}  = q*M_j + Cb                              line 7
//            {Cg : gamma} = alpha + beta + Cg                       line 8
//            {Cs : Sw}    = gamma + S_(i,j) + Cs; S_(i+1,j-1) = Sw  line 9
//   then 4 flush clocks: (6 + 2(D+1))*D + 4 clocks (Eq. 8), counted from
//   the clock edge after `start` to the edge that raises `done`.
//
// One multiplier (17x17 bits) serves lines 3, 6 and 7 in turn; no final
// subtraction: for X, Y < 2M and 17D >= bits(M) + 2 the output S < 2M.
//
// Memory: one RAM of 8 banks of 2^AW 17-bit words (digits 0 .. D-1 used),
// least significant digit first, as the paper keeps operands and intermediate results in sub-blocks
// of one block RAM (Figure 8). Bank 0 holds M; a product reads X from bank
// `xb`, Y from bank `yb` and writes S into bank `sb` (sampled at start;
// `sb` must differ from `xb`, `yb` and 0). The RAM is read in the same
// clock (distributed RAM), not the paper's pipelined block RAM, and holds
// no flag bits. S needs no clearing: its reads are 0 in the first outer
// iteration.
//
// Every product starts with the clocked registers cleared. `start` is taken
// when idle and also in a product's last clock (`last`), so that a
// controller can chain products with no clock between them (Alg. 2).
//
// Host port: `we` writes `wdata` to digit `waddr` of bank `wbank` (while
// idle); `rdata` is digit `raddr` of bank `rbank`.
module fdfm_mm #(
    parameter integer D  = 4,                // digits: 17*D >= bits(M) + 2
    parameter integer AW = $clog2(D + 1)     // digit address width
) (
    input  wire          clk,
    input  wire          rst,
    input  wire          start,
    input  wire [2:0]    xb,     // bank of X
    input  wire [2:0]    yb,     // bank of Y
    input  wire [2:0]    sb,     // bank S is written to
    input  wire [16:0]   minv,   // -M^-1 mod 2^17
    input  wire          we,
    input  wire [2:0]    wbank,
    // The host's addresses are as wide as i and j: the top bit goes unused
    // when D is a power of two.
    /* verilator lint_off UNUSEDSIGNAL */
    input  wire [AW-1:0] waddr,
    input  wire [16:0]   wdata,
    input  wire [AW-1:0] raddr,
    /* verilator lint_on UNUSEDSIGNAL */
    input  wire [2:0]    rbank,
    output wire [16:0]   rdata,
    output reg           busy,
    output reg           done,
    output wire          last,   // the product's last clock: start here chains the next
    // The clocked registers, as the model's clock trace names them.
    output reg  [16:0]   t,
    output reg  [16:0]   q,
    output reg  [16:0]   ca,
    output reg  [16:0]   alpha,
    output reg  [16:0]   cb,
    output reg           cg,
    output reg           cs,
    output reg  [16:0]   sw
);
    localparam [2:0] IDLE = 3'd0, T = 3'd1, Q = 3'd2, WAIT = 3'd3,
                     XY = 3'd4, QM = 3'd5, FLUSH = 3'd6;

    localparam integer LASTI = D - 1;
    localparam [AW-1:0] TOP = D[AW-1:0];       // the zero digit's index
    localparam [AW-1:0] LAST = LASTI[AW-1:0];  // the last outer iteration

    // i and j run to D, one past a bank's last word (the reads there are
    // masked), so an address is one bit wider than a bank needs when D is a
    // power of two.
    /* verilator lint_off WIDTH */
    reg [16:0] ram [0:(8 << AW) - 1];

    reg [2:0]    state;
    reg [AW-1:0] i;
    reg [AW-1:0] j;
    reg [1:0]    w;
    reg [2:0]    xbr, ybr, sbr;

    // Word `digit` of bank `bank`: banks of 2^AW words (64 at 1024 bits, the
    // paper's 64 x 18 sub-blocks), so an address is {bank, digit}.
    function [AW+2:0] at;
        input [2:0] bank;
        input [AW-1:0] digit;
        begin
            at = {bank, digit};
        end
    endfunction

    // Digit j of X, M and S_(i,j); the digit above the top one is 0, and so
    // is every S digit in the first outer iteration.
    wire        top = (j == TOP);
    wire [16:0] xj  = top ? 17'd0 : ram[at(xbr, j)];
    wire [16:0] mj  = top ? 17'd0 : ram[at(3'd0, j)];
    wire [16:0] sj  = (top || i == {AW{1'b0}}) ? 17'd0 : ram[at(sbr, j)];
    wire [16:0] s0  = (i == {AW{1'b0}}) ? 17'd0 : ram[at(sbr, {AW{1'b0}})];
    wire [16:0] yi  = ram[at(ybr, i)];
    wire [16:0] x0  = ram[at(xbr, {AW{1'b0}})];

    // The one multiplier: its inputs by state (lines 3, 6, 7).
    reg  [16:0] ma, mb;
    always @(*) begin
        case (state)
            T:       begin ma = x0;    mb = yi;   end
            Q:       begin ma = t;     mb = minv; end
            XY:      begin ma = xj;    mb = yi;   end
            default: begin ma = q;     mb = mj;   end
        endcase
    end
    wire [33:0] prod = ma * mb;

    wire [33:0] line6 = prod + {17'd0, ca};
    wire [33:0] line7 = prod + {17'd0, cb};
    wire [17:0] line8 = {1'b0, alpha} + {1'b0, line7[16:0]} + {17'd0, cg};
    wire [17:0] line9 = {1'b0, line8[16:0]} + {1'b0, sj} + {17'd0, cs};
    wire [16:0] line3 = prod[16:0] + s0;   // mod 2^17

    assign rdata = ram[at(rbank, raddr)];
    assign last  = (state == FLUSH) && (w == 2'd3);

    // A product's first clock: its banks taken, the clocked registers cleared.
    task begin_product;
        begin
            state <= T;
            i     <= {AW{1'b0}};
            xbr <= xb; ybr <= yb; sbr <= sb;
            t <= 17'd0; q <= 17'd0; ca <= 17'd0; alpha <= 17'd0;
            cb <= 17'd0; cg <= 1'b0; cs <= 1'b0; sw <= 17'd0;
        end
    endtask

    always @(posedge clk) begin
        if (rst) begin
            state <= IDLE;
            busy  <= 1'b0;
            done  <= 1'b0;
            t <= 17'd0; q <= 17'd0; ca <= 17'd0; alpha <= 17'd0;
            cb <= 17'd0; cg <= 1'b0; cs <= 1'b0; sw <= 17'd0;
        end else begin
            case (state)
                IDLE: begin
                    if (we) ram[at(wbank, waddr)] <= wdata;
                    if (start) begin
                        begin_product;
                        busy <= 1'b1;
                        done <= 1'b0;
                    end
                end
                T: begin
                    done  <= 1'b0;
                    t     <= line3[16:0];
                    state <= Q;
                end
                Q: begin
                    q  <= prod[16:0];
                    ca <= 17'd0; cb <= 17'd0; cg <= 1'b0; cs <= 1'b0;
                    w     <= 2'd0;
                    state <= WAIT;
                end
                WAIT: begin
                    w <= w + 2'd1;
                    if (w == 2'd3) begin
                        j     <= {AW{1'b0}};
                        state <= XY;
                    end
                end
                XY: begin
                    {ca, alpha} <= line6;
                    state <= QM;
                end
                QM: begin
                    cb <= line7[33:17];
                    cg <= line8[17];
                    cs <= line9[17];
                    sw <= line9[16:0];
                    if (j != {AW{1'b0}}) ram[at(sbr, j - 1'b1)] <= line9[16:0];
                    if (!top) begin
                        j     <= j + 1'b1;
                        state <= XY;
                    end else if (i != LAST) begin
                        i     <= i + 1'b1;
                        state <= T;
                    end else begin
                        w     <= 2'd0;
                        state <= FLUSH;
                    end
                end
                FLUSH: begin
                    w <= w + 2'd1;
                    if (last) begin
                        done <= 1'b1;
                        if (start) begin
                            begin_product;   // the next, with no clock between
                        end else begin
                            busy  <= 1'b0;
                            state <= IDLE;
                        end
                    end
                end
                default: state <= IDLE;
            endcase
        end
    end
    /* verilator lint_on WIDTH */
endmodule
