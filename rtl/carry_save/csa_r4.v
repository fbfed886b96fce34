`timescale 1ns / 1ps
// 003 §III, Alg. II: Garg and Vig's radix-4 ("multi-bit shifting")
// carry-save Montgomery multiplier, one iteration per clock, clock for clock
// the golden model (crates/redc-hw/src/carry_save/multiplier.rs), with its
// repairs of the printed algorithm (see redc-hw's carry_save module docs):
//
//   before the loop (combinational, from B): 2B = ({B1,0}, {B2,0}) and
//     3B = (B1_3, B2_3) = CSR({B1,0} + B1 + {B2,0} + B2)            step 1b
//   for i = 0 .. ceil(K/2) (ceil(K/2) + 1 clocks, K = bits(n)):
//     {a2i+1,a2i} = the serial adder's 2-bit digit of A1 + A2 (carry c)
//     (S1, S2) = CSR(S1 + S2 + BB1 + BB2), BB = 0, B, 2B or 3B by the digit   2a, 2b
//     {q2i+1,q2i} = (S1_1 ^ S2_1, S2_0)                                     2c
//     (S1, S2) = CSA(S1 + S2 + N), N = n·({q2i+1,q2i}·n' mod 4)              2d, 2e
//     drop the two low bits; their carry S1_1 & S2_1 goes back in           2f
//
// Inputs beside n: n' = -n^-1 mod 4 and 3n (the manifest's constants
// nprime and n3), which give N from {0, n, 2n, 3n}. Operands and result in
// carry-save form, A1 + A2 and B1 + B2 below 2n; the clocks are counted
// from the edge after `start` to the edge that raises `done`.
module csa_r4 #(
    parameter integer K = 64    // bits of n
) (
    input  wire         clk,
    input  wire         rst,
    input  wire         start,
    input  wire [K-1:0] n,
    input  wire [K+1:0] n3,      // 3n
    input  wire [1:0]   nprime,  // -n^-1 mod 4
    input  wire [K:0]   a1,
    input  wire [K:0]   a2,
    input  wire [K:0]   b1,
    input  wire [K:0]   b2,
    output reg          busy,
    output reg          done,
    // The registers, as the model's trace names them.
    output reg  [K+1:0] s1,
    output reg  [K+1:0] s2,
    output reg  [K:0]   ra1,
    output reg  [K:0]   ra2,
    output reg          c,
    output reg  [1:0]   digit,   // {a2i+1, a2i}
    output reg  [1:0]   qd       // {q2i+1, q2i}
);
    // Every sum stays under 2^(K+4) (S + 3B + 3n < 12n); the widest word.
    localparam integer W = K + 4;
    localparam integer ITER = (K + 1) / 2 + 1;
    localparam integer CW = $clog2(ITER + 1);
    localparam integer LASTI = ITER - 1;
    localparam [CW-1:0] LAST = LASTI[CW-1:0];

    reg [K:0] rb1, rb2;
    reg [CW-1:0] i;

`include "csa_adders.vh"

    wire [W-1:0] wb1 = {{(W-K-1){1'b0}}, rb1};
    wire [W-1:0] wb2 = {{(W-K-1){1'b0}}, rb2};
    wire [W-1:0] wn  = {{(W-K){1'b0}}, n};
    wire [2*W-1:0] b3 = csr4(wb1 << 1, wb1, wb2 << 1, wb2);

    // This clock's digit of A (the serial adder on two bits).
    wire [2:0] t = {1'b0, ra1[1:0]} + {1'b0, ra2[1:0]} + {2'b0, c};
    reg [W-1:0] x1, x2;
    always @(*) begin
        case (t[1:0])
            2'd0:    begin x1 = {W{1'b0}};  x2 = {W{1'b0}};  end
            2'd1:    begin x1 = wb1;        x2 = wb2;        end
            2'd2:    begin x1 = wb1 << 1;   x2 = wb2 << 1;   end
            default: begin x1 = b3[2*W-1:W]; x2 = b3[W-1:0]; end
        endcase
    end
    wire [W-1:0] ws1 = {{(W-K-2){1'b0}}, s1};
    wire [W-1:0] ws2 = {{(W-K-2){1'b0}}, s2};
    wire [2*W-1:0] step2b = csr4(ws1, ws2, x1, x2);
    wire [W-1:0] c2 = step2b[2*W-1:W];
    wire [W-1:0] s2b = step2b[W-1:0];
    wire [1:0] q = {c2[1] ^ s2b[1], s2b[0]};
    // N = n·(q·n' mod 4), from 0, n, 2n and 3n.
    wire [1:0] qn = q * nprime;   // mod 4
    reg [W-1:0] nn;
    always @(*) begin
        case (qn)
            2'd0:    nn = {W{1'b0}};
            2'd1:    nn = wn;
            2'd2:    nn = wn << 1;
            default: nn = {{(W-K-2){1'b0}}, n3};
        endcase
    end
    wire [2*W-1:0] step2e = fa(c2, s2b, nn);
    wire [W-1:0] c3 = step2e[2*W-1:W];
    wire [W-1:0] s3 = step2e[W-1:0];
    // Step 2f: the sum is divisible by 4; the two low bits' carry goes back in.
    wire [W-1:0] h1 = c3 >> 2;
    wire [W-1:0] h2 = s3 >> 2;
    wire [2*W-1:0] step2f = fa(h1, h2, {{(W-1){1'b0}}, c3[1] & s3[1]});
    // The new S words fit K + 2 bits (S1 + S2 < 2^(K+2)): the top two go unused.
    /* verilator lint_off UNUSEDSIGNAL */
    wire [W-1:0] n1 = (c3[1] & s3[1]) ? step2f[2*W-1:W] : h1;
    wire [W-1:0] n2 = (c3[1] & s3[1]) ? step2f[W-1:0] : h2;
    /* verilator lint_on UNUSEDSIGNAL */

    always @(posedge clk) begin
        if (rst) begin
            busy <= 1'b0;
            done <= 1'b0;
        end else if (!busy) begin
            if (start) begin
                ra1 <= a1; ra2 <= a2; rb1 <= b1; rb2 <= b2;
                s1 <= {(K+2){1'b0}}; s2 <= {(K+2){1'b0}};
                c <= 1'b0; digit <= 2'd0; qd <= 2'd0;
                i <= {CW{1'b0}};
                busy <= 1'b1;
                done <= 1'b0;
            end
        end else begin
            digit <= t[1:0];
            c     <= t[2];
            qd    <= q;
            ra1   <= ra1 >> 2;
            ra2   <= ra2 >> 2;
            s1    <= n1[K+1:0];
            s2    <= n2[K+1:0];
            i     <= i + 1'b1;
            if (i == LAST) begin
                busy <= 1'b0;
                done <= 1'b1;
            end
        end
    end
endmodule
