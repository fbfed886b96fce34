`timescale 1ns / 1ps
// 004 §4.1: Perin, Mesquita and Martins' systolic Montgomery multiplier
// ("Montgomery Modular Multiplication on Reconfigurable Hardware: Systolic
// versus Multiplexed Implementation"), Algorithm 1 in radix 2^K without
// final subtraction, on M processing elements; clock for clock the golden
// model's schedule (crates/redc-hw/src/perin/schedule.rs, systolic PE),
// n_MM = 6M clocks (Table 1):
//
//   clocks 0 .. M+1      B_j and N_j into PE j, a_0 read (the block RAM's
//                        two-clock latency)
//   clock q_i = M+2+4i   the quotient block (Figure 5):
//                        q_i = ((S^0 + a_i*B_0 mod 2^K) * N') mod 2^K
//   clock q_i+1+j        PE j multiplies: a_i*B_j and q_i*N_j (stage 0)
//   clock q_i+2+j        PE j adds (Figure 2): x = lo(a_i B_j) + lo(q_i N_j),
//                        y = lo(x) + S^j + C_(j-1), C_j = the four high parts;
//                        PE j > 0 writes S^(j-1) = lo(y); PE M-1 also writes
//                        S^(M-1) = C_(M-1) (PE 0's lo(y) is the dropped zero)
//
// a_i and q_i pass from PE to PE one clock apart (the systolic chain). The
// last add is clock 6M-1; the clocks are counted from the edge after
// `start` to the edge that raises `done`. A, B < 2N and 4N < 2^(K*M) give
// S < 2N (Walter).
module perin_systolic #(
    parameter integer K = 16,   // word width (the paper's 16 or 32)
    parameter integer M = 4     // words = PEs: 4N < 2^(K*M), M >= 2
) (
    input  wire           clk,
    input  wire           rst,
    input  wire           start,
    input  wire [K*M-1:0] a,
    input  wire [K*M-1:0] b,
    input  wire [K*M-1:0] n,
    input  wire [K-1:0]   nprime,  // N' = -N^-1 mod 2^K
    output wire           busy,
    output wire           done,
    output wire [K*M-1:0] s,       // S, word j at bit K*j
    // The quotient block's registers and a pulse after each q_i.
    output wire [K-1:0]   a_i,
    output wire [K-1:0]   q_i,
    output wire           q_valid
);
    reg [K*M-1:0] rb, rn;
    reg [K-1:0]   sw [0:M-1];   // S_i, one word per PE
    reg [K:0]     c  [0:M-1];   // each PE's carry register C_j (K+1 bits)
    reg [K-1:0]   pa [0:M-1];   // a_i as PE j holds it
    reg [K-1:0]   pq [0:M-1];   // q_i as PE j holds it
    reg           pv [0:M-1];   // PE j multiplies this clock
    reg [2*K-1:0] ab [0:M-1];   // stage 0's products
    reg [2*K-1:0] qn [0:M-1];
    reg           av [0:M-1];   // PE j adds this clock
    wire          fire;
    wire [K-1:0]  a_now, q_now;

    genvar j;
    generate
        for (j = 0; j < M; j = j + 1) begin : word
            assign s[K*j +: K] = sw[j];
        end
    endgenerate

    // The control and quotient blocks: q_i every 4 clocks from clock M+2.
    perin_control #(.K(K), .M(M), .FIRST(M + 2), .STEP(4), .LAST(6 * M - 1)) ctl (
        .clk(clk), .rst(rst), .start(start), .a(a), .b0(rb[K-1:0]), .s0(sw[0]),
        .nprime(nprime), .busy(busy), .done(done), .fire(fire), .a_now(a_now),
        .q_now(q_now), .a_i(a_i), .q_i(q_i), .q_valid(q_valid)
    );

    always @(posedge clk) begin
        if (!busy && start) begin
            rb <= b;
            rn <= n;
        end
    end

    // The PEs: stage 0 (multiply) when pv, stage 1 (add) when av.
    generate
        for (j = 0; j < M; j = j + 1) begin : pe
            wire [K-1:0] bj = rb[K*j +: K];
            wire [K-1:0] nj = rn[K*j +: K];
            wire [K:0]   x  = {1'b0, ab[j][K-1:0]} + {1'b0, qn[j][K-1:0]};
            wire [K:0]   cin = (j == 0) ? {(K+1){1'b0}} : c[(j == 0) ? 0 : j - 1];
            // PE 0's low word of y is the zero the division by 2^K drops.
            /* verilator lint_off UNUSEDSIGNAL */
            wire [K+2:0] y  = {3'b0, x[K-1:0]} + {3'b0, sw[j]} + {2'b0, cin};
            /* verilator lint_on UNUSEDSIGNAL */
            wire [K:0]   cout = {1'b0, ab[j][2*K-1:K]} + {1'b0, qn[j][2*K-1:K]}
                                + {{K{1'b0}}, x[K]} + {{(K-2){1'b0}}, y[K+2:K]};
            always @(posedge clk) begin
                if (rst || (!busy && start)) begin
                    pv[j] <= 1'b0;
                    av[j] <= 1'b0;
                    c[j]  <= {(K+1){1'b0}};
                    sw[j] <= {K{1'b0}};
                end else begin
                    // a_i, q_i and the go bit down the chain, one PE a clock.
                    if (j == 0) begin
                        pv[j] <= fire;
                        pa[j] <= a_now;
                        pq[j] <= q_now;
                    end else begin
                        pv[j] <= pv[(j == 0) ? 0 : j - 1];
                        pa[j] <= pa[(j == 0) ? 0 : j - 1];
                        pq[j] <= pq[(j == 0) ? 0 : j - 1];
                    end
                    av[j] <= pv[j];
                    if (pv[j]) begin
                        ab[j] <= pa[j] * bj;
                        qn[j] <= pq[j] * nj;
                    end
                    if (av[j]) c[j] <= cout;
                    // S^j is written by PE j+1 (its lo(y)); S^(M-1) by PE M-1.
                    if (j < M - 1) begin
                        if (av[(j < M - 1) ? j + 1 : j]) sw[j] <= pe[(j < M - 1) ? j + 1 : j].y[K-1:0];
                    end else if (av[j]) begin
                        sw[j] <= cout[K-1:0];
                    end
                end
            end
        end
    endgenerate
endmodule
