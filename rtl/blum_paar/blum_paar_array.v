`timescale 1ns / 1ps
// 002 §3.2 and §4.2-4.4: Blum and Paar's radix-2^K array ("High-radix
// Montgomery modular exponentiation on reconfigurable hardware") in the
// golden model's timing, not the paper's: every unit of an iteration is
// evaluated in the clock the iteration is counted in (the carry ripples
// through all M+3 units in that clock), where the paper's systolic array
// skews a column over the units in time. The clock counts are the paper's;
// the path lengths are not (see the synthesis table of docs/rtl.md). Alg. 3.2
// after Orup: with M~ = (M' mod 2^K)*M, M~ = -1 (mod 2^K), the quotient
// digit is q_i = S_i mod 2^K and
//
//   S_0 = 0;  for i = 0 .. M+2:  S_(i+1) = (S_i + q_i*M~)/2^K + a_i*B
//
// on M+3 units (unit j holds digit j of S) and two RAMs of multiples per
// unit: the M~-RAM (row t = t*M~, filled when M~ is loaded, uncounted, as
// the model and the paper count it) and the B-RAM (row t = t*B, filled at
// the start of each slot, one row a clock by the B/M~-adder). Clock for
// clock the golden model's slot (crates/redc-hw/src/blum_paar/array.rs):
//
//   clocks 0 .. 2^K-3        B-RAM rows 2 .. 2^K-1, row t = row t-1 + B
//   clock 2^K-2 + 2i + p     iteration i of product p (0: the squaring or a
//                            lone product, 1: the multiplication
//                            interleaved with it, when `two`)
//
// 2^K - 2 + 2(M+3) clocks a slot (2M + 20 at K = 4, §4.3). Each unit adds
// t_j = s_j + M~RAM_j[q_i] + BRAM_(j-1)[a_i] + c_j (K+2 bits, Figure 1),
// passes c_(j+1) = t_j >> K to the left and t_j mod 2^K to unit j-1 (the
// division by 2^K); unit 0's sum is 0 mod 2^K and is dropped, unit M+2
// keeps its carry as the new top digit. As in the model, every unit of an
// iteration is evaluated in the clock that iteration is counted in (the
// order the paper's skewed schedule evaluates the columns); the paper's
// array spreads a column over the units in time and drains M+2 clocks
// after the last slot, which neither the paper nor the model counts.
// Preconditions: A, B < 2M~ (M+2 digits, the top one a single bit); then
// S < 2M~ (Alg. 3.2's bound 4M~ < 2^(K(M+2)), module docs of the model).
module blum_paar_array #(
    parameter integer K = 4,   // digit width (radix 2^K; the paper's 4), K >= 2
    parameter integer M = 5    // digits of the modulus M
) (
    input  wire               clk,
    input  wire               rst,
    // Loading M~ fills the M~-RAM (2^K - 2 clocks, before any slot).
    input  wire               load,
    input  wire [K*(M+1)-1:0] mtilde,
    output reg                ready,
    // One slot: MONT(a0, b) and, with `two`, MONT(a1, b) interleaved.
    input  wire               start,
    input  wire               two,
    input  wire [K*(M+2)-1:0] a0,
    input  wire [K*(M+2)-1:0] a1,
    input  wire [K*(M+2)-1:0] b,
    output reg                busy,
    output reg                done,
    output reg  [K*(M+3)-1:0] s0,
    output reg  [K*(M+3)-1:0] s1,
    // After each iteration of product 0: a pulse, and its q_i and a_i.
    output reg                it_valid,
    output reg  [K-1:0]       q_o,
    output reg  [K-1:0]       a_o
);
    localparam integer U = M + 3;                // units
    localparam integer RW = K * (M + 2) + 1;     // a RAM row: M+2 digits, the top one a bit wider
    localparam integer ROWS = 1 << K;
    localparam integer FILL = ROWS - 2;          // B-RAM rows filled per slot
    localparam integer LAST = FILL + 2 * U - 1;  // the slot's last clock
    localparam integer TW = $clog2(LAST + 2);
    localparam integer TOP = ROWS - 1;
    localparam [K-1:0]  TOPROW = TOP[K-1:0];
    localparam integer TWO_I = 2;
    localparam [K-1:0]  TWO = TWO_I[K-1:0];       // the first row the adder fills

    reg [RW-1:0]      mram [0:ROWS-1];
    reg [RW-1:0]      bram [0:ROWS-1];
    reg [K-1:0]       lt;                        // the M~-RAM row being filled
    reg               filling;
    reg [TW-1:0]      t;                         // the slot's clock
    reg [K*U-1:0]     ra0, ra1;                  // A with a_(M+2) = 0
    reg               rtwo;

    // Which part of the slot this clock is.
    wire          iter  = (t >= FILL[TW-1:0]);
    wire [TW-1:0] u     = t - FILL[TW-1:0];
    wire          phase = u[0];
    wire [TW-2:0] i     = u[TW-1:1];
    wire          run   = busy && iter && (!phase || rtwo);

    // The iteration of the product in `phase`: q_i, a_i and the rows.
    wire [K*U-1:0] s_in  = phase ? s1 : s0;
    wire [K-1:0]   q     = s_in[K-1:0];
    wire [K-1:0]   a_i   = phase ? ra1[K*i +: K] : ra0[K*i +: K];
    // t*M~ < 2^(K(M+2)): the M~-RAM's extra top bit stays 0.
    /* verilator lint_off UNUSEDSIGNAL */
    wire [RW-1:0]  mrow  = mram[q];
    /* verilator lint_on UNUSEDSIGNAL */
    wire [RW-1:0]  brow  = bram[a_i];
    wire [K*U-1:0] s_out;
    /* verilator lint_off UNOPTFLAT */
    wire [2:0]     c [0:U];                      // the carry chain, unit to unit
    /* verilator lint_on UNOPTFLAT */
    // The B/M~-adder's row this clock while the B-RAM fills.
    wire [K-1:0]   frow  = t[K-1:0] + TWO;

    assign c[0] = 3'd0;
    genvar j;
    generate
        for (j = 0; j < U; j = j + 1) begin : unit
            // Unit j's words: digit j of q*M~ (none in unit M+2), digit j-1
            // of a_i*B (none in unit 0; K+1 bits in unit M+2).
            wire [K:0] mv, bv;
            if (j <= M + 1) begin : m_word
                assign mv = {1'b0, mrow[K*j +: K]};
            end else begin : no_m
                assign mv = {(K+1){1'b0}};
            end
            if (j == 0) begin : no_b
                assign bv = {(K+1){1'b0}};
            end else if (j <= M + 1) begin : b_word
                assign bv = {1'b0, brow[K*(j-1) +: K]};
            end else begin : b_top
                assign bv = brow[RW-1 : K*(M+1)];
            end
            // Unit 0's low digit is the zero the division by 2^K drops.
            /* verilator lint_off UNUSEDSIGNAL */
            wire [K+2:0] tj = {3'b0, s_in[K*j +: K]} + {2'b0, mv} + {2'b0, bv} + {{K{1'b0}}, c[j]};
            /* verilator lint_on UNUSEDSIGNAL */
            assign c[j+1] = tj[K+2:K];
            // t_j mod 2^K goes to unit j-1 (unit 0's is the dropped zero).
            if (j > 0) begin : shift
                assign s_out[K*(j-1) +: K] = tj[K-1:0];
            end
        end
    endgenerate
    // Unit M+2 keeps its overflow as the new top digit.
    // (it fits a digit: S < 2^(K(M+3))).
    /* verilator lint_off UNUSEDSIGNAL */
    wire [K+2:0] top = {{K{1'b0}}, c[U]};
    /* verilator lint_on UNUSEDSIGNAL */
    assign s_out[K*(U-1) +: K] = top[K-1:0];

    always @(posedge clk) begin
        if (rst) begin
            ready <= 1'b0;
            filling <= 1'b0;
            busy <= 1'b0;
            done <= 1'b0;
            it_valid <= 1'b0;
        end else begin
            it_valid <= 1'b0;
            // Loading M~: rows 0 and 1, then one row a clock.
            if (load && !busy) begin
                mram[0] <= {RW{1'b0}};
                mram[1] <= {{(RW-K*(M+1)){1'b0}}, mtilde};
                lt <= TWO;
                filling <= (ROWS > 2);
                ready <= (ROWS == 2);
            end else if (filling) begin
                mram[lt] <= mram[lt-1] + mram[1];
                if (lt == TOPROW) begin
                    filling <= 1'b0;
                    ready <= 1'b1;
                end
                lt <= lt + 1'b1;
            end
            if (!busy) begin
                if (start && ready) begin
                    bram[0] <= {RW{1'b0}};
                    bram[1] <= {1'b0, b};
                    ra0 <= {{K{1'b0}}, a0};
                    ra1 <= {{K{1'b0}}, a1};
                    rtwo <= two;
                    s0 <= {(K*U){1'b0}};
                    s1 <= {(K*U){1'b0}};
                    t <= {TW{1'b0}};
                    busy <= 1'b1;
                    done <= 1'b0;
                end
            end else begin
                t <= t + 1'b1;
                // The B/M~-adder: B-RAM row t+2 = row t+1 + B.
                if (!iter) bram[frow] <= bram[frow - 1'b1] + bram[1];
                if (run) begin
                    if (phase) s1 <= s_out;
                    else begin
                        s0 <= s_out;
                        it_valid <= 1'b1;
                        q_o <= q;
                        a_o <= a_i;
                    end
                end
                if (t == LAST[TW-1:0]) begin
                    busy <= 1'b0;
                    done <= 1'b1;
                end
            end
        end
    end
endmodule
