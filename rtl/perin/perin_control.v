`timescale 1ns / 1ps
// 004 §4.1.3 and §4.2: what Perin, Mesquita and Martins' two arrays share,
// the control block and the quotient block (Figure 5). It latches A and N'
// at start (the caller latches B_0 and keeps S^0). The control counts
// the product's clocks from the edge after `start` (clock 0); the quotient
// block forms q_i at clock FIRST + STEP*i for i = 0 .. M-1:
//
//   q_i = ((S^0 + a_i*B_0 mod 2^K) * N') mod 2^K
//
// and `done` rises at the edge ending clock LAST. `fire` is high in a
// quotient clock, with the a_i and q_i it forms on a_now and q_now; a_i,
// q_i and q_valid hold them from the clock after (what the testbenches
// check against the model's trace).
module perin_control #(
    parameter integer K = 16,     // word width
    parameter integer M = 4,      // words (iterations)
    parameter integer FIRST = 6,  // the first quotient's clock (M + 2)
    parameter integer STEP = 4,   // clocks between quotients
    parameter integer LAST = 23   // the product's last clock
) (
    input  wire           clk,
    input  wire           rst,
    input  wire           start,
    input  wire [K*M-1:0] a,       // A, latched at start
    input  wire [K-1:0]   b0,      // B_0
    input  wire [K-1:0]   s0,      // S^0
    input  wire [K-1:0]   nprime,  // N' = -N^-1 mod 2^K
    output reg            busy,
    output reg            done,
    output wire           fire,
    output wire [K-1:0]   a_now,
    output wire [K-1:0]   q_now,
    output reg  [K-1:0]   a_i,
    output reg  [K-1:0]   q_i,
    output reg            q_valid
);
    localparam integer TW = $clog2(LAST + 2);
    localparam integer IW = $clog2(M + 1);
    localparam [IW-1:0] MW = M[IW-1:0];

    reg [TW-1:0]  t;    // the clock of the product
    reg [TW-1:0]  tq;   // the next quotient's clock
    reg [IW-1:0]  i;    // the next quotient's iteration
    reg [K*M-1:0] ra;
    reg [K-1:0]   rnp;  // N'

    // Products mod 2^K: their high halves go unused.
    /* verilator lint_off UNUSEDSIGNAL */
    wire [2*K-1:0] a0b0 = a_now * b0;
    wire [K-1:0]   low  = s0 + a0b0[K-1:0];
    wire [2*K-1:0] qq   = low * rnp;
    /* verilator lint_on UNUSEDSIGNAL */
    assign a_now = ra[K*i +: K];
    assign q_now = qq[K-1:0];
    assign fire  = busy && (t == tq) && (i != MW);

    always @(posedge clk) begin
        if (rst) begin
            busy <= 1'b0;
            done <= 1'b0;
            q_valid <= 1'b0;
        end else if (!busy) begin
            q_valid <= 1'b0;
            if (start) begin
                ra <= a;
                rnp <= nprime;
                t <= {TW{1'b0}};
                tq <= FIRST[TW-1:0];
                i <= {IW{1'b0}};
                a_i <= {K{1'b0}};
                q_i <= {K{1'b0}};
                busy <= 1'b1;
                done <= 1'b0;
            end
        end else begin
            t <= t + 1'b1;
            q_valid <= fire;
            if (fire) begin
                a_i <= a_now;
                q_i <= q_now;
                tq <= tq + STEP[TW-1:0];
                i <= i + 1'b1;
            end
            if (t == LAST[TW-1:0]) begin
                busy <= 1'b0;
                done <= 1'b1;
            end
        end
    end
endmodule
