`timescale 1ns / 1ps
// 003 §II, Alg. I: Garg and Vig's radix-2 carry-save Montgomery multiplier
// ("An Efficient Montgomery Multiplication Algorithm and RSA Cryptographic
// Processor"), one iteration per clock, clock for clock the golden model
// (crates/redc-hw/src/carry_save/multiplier.rs):
//
//   before the loop (combinational, from B): (D1, D2) = CSR(B1 + B2 + n + 0)
//   for i = 0 .. K+1 (K + 2 clocks, K = bits(n)):
//     Ai = the serial adder's digit: A1[0] ^ A2[0] ^ c; c = maj(A1[0], A2[0], c);
//          A1, A2 shifted right by one
//     qi = (S1[0] ^ S2[0]) ^ (Ai & (B1[0] ^ B2[0]))
//     (X1, X2) = (0, 0), (n, 0), (B1, B2) or (D1, D2) by (Ai, qi)
//     (S1, S2) = CSR(S1 + S2 + X1 + X2) div 2    (the four-to-two CSA of Figure 1)
//
// Operands and result in carry-save form: A = A1 + A2, B = B1 + B2 below 2n
// give S1 + S2 = (A*B + Q*n) / 2^(K+2) below 2n, Q the quotient bits. The
// K + 2 clocks are counted from the edge after `start` to the edge that
// raises `done`; every product starts with S = 0 and the carry cleared.
module csa_r2 #(
    parameter integer K = 64    // bits of n
) (
    input  wire         clk,
    input  wire         rst,
    input  wire         start,
    input  wire [K-1:0] n,
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
    output reg          ai,
    output reg          qi
);
    // Every sum below stays under 2^(K+3) (S + B + n < 8n); one bit of headroom.
    localparam integer W = K + 4;
    localparam integer ITER = K + 2;
    localparam integer CW = $clog2(ITER + 1);
    localparam integer LASTI = ITER - 1;
    localparam [CW-1:0] LAST = LASTI[CW-1:0];

    reg [K:0] rb1, rb2;
    reg [CW-1:0] i;

`include "csa_adders.vh"

    wire [W-1:0] wn  = {{(W-K){1'b0}}, n};
    wire [W-1:0] wb1 = {{(W-K-1){1'b0}}, rb1};
    wire [W-1:0] wb2 = {{(W-K-1){1'b0}}, rb2};
    wire [2*W-1:0] dd = csr4(wb1, wb2, wn, {W{1'b0}});

    // This clock's digit of A and quotient bit.
    wire digit = ra1[0] ^ ra2[0] ^ c;
    wire carry = (ra1[0] & ra2[0]) | (c & (ra1[0] ^ ra2[0]));
    wire q = s1[0] ^ s2[0] ^ (digit & (rb1[0] ^ rb2[0]));
    reg [W-1:0] x1, x2;
    always @(*) begin
        case ({digit, q})
            2'b00:   begin x1 = {W{1'b0}};   x2 = {W{1'b0}};   end
            2'b01:   begin x1 = wn;          x2 = {W{1'b0}};   end
            2'b10:   begin x1 = wb1;         x2 = wb2;         end
            default: begin x1 = dd[2*W-1:W]; x2 = dd[W-1:0];   end
        endcase
    end
    wire [W-1:0] ws1 = {{(W-K-2){1'b0}}, s1};
    wire [W-1:0] ws2 = {{(W-K-2){1'b0}}, s2};
    // The sum is even (bit 0 of both words is 0 after q's choice) and below
    // 2^(K+3), so the words halved fit K + 2 bits: bits 0 and K+3 up are 0.
    /* verilator lint_off UNUSEDSIGNAL */
    wire [2*W-1:0] next = csr4(ws1, ws2, x1, x2);
    /* verilator lint_on UNUSEDSIGNAL */

    always @(posedge clk) begin
        if (rst) begin
            busy <= 1'b0;
            done <= 1'b0;
        end else if (!busy) begin
            if (start) begin
                ra1 <= a1; ra2 <= a2; rb1 <= b1; rb2 <= b2;
                s1 <= {(K+2){1'b0}}; s2 <= {(K+2){1'b0}};
                c <= 1'b0; ai <= 1'b0; qi <= 1'b0;
                i <= {CW{1'b0}};
                busy <= 1'b1;
                done <= 1'b0;
            end
        end else begin
            ai  <= digit;
            c   <= carry;
            qi  <= q;
            ra1 <= ra1 >> 1;
            ra2 <= ra2 >> 1;
            s1  <= next[W+K+2:W+1];
            s2  <= next[K+2:1];
            i   <= i + 1'b1;
            if (i == LAST) begin
                busy <= 1'b0;
                done <= 1'b1;
            end
        end
    end
endmodule
