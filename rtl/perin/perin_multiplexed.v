`timescale 1ns / 1ps
// 004 §4.2: Perin, Mesquita and Martins' multiplexed array, Algorithm 1 in
// radix 2^K without final subtraction on M/4 arithmetic cores (Figure 7),
// each with an 8-word RAM of its four B and N words, one multiplier block
// (Figure 9: a_i*B_j and q_i*N_j, S^j and the k-bit carries C_SaB, C_qN
// added in) and the PE addition of Figure 10 (the two low words and the
// one-bit carry C_PE). A core's four words pass its stages on consecutive
// clocks, so one PE adder a core does the work of the paper's four PEs
// (the model's four per-word PE stages never overlap within a core).
// Clock for clock the golden model's schedule
// (crates/redc-hw/src/perin/schedule.rs, multiplexed core), n_MM = 8M
// clocks (Table 1):
//
//   clocks 0 .. M+1      the model's loading time (the cores' RAMs and A
//                        are written in parallel at start; the RTL waits)
//   clock Q = M+2+6i     the quotient block forms q_i (perin_control.v)
//   clock Q+1+j          word j's core reads B_j and N_j from its RAM
//   clock Q+2+j          its multiplier block multiplies
//   clock Q+3+j          and adds: SaB = S^j + a_i*B_j + C_SaB(j-1),
//                        qN = q_i*N_j + C_qN(j-1)
//   clock Q+4+j          PE j adds lo(SaB) + lo(qN) + C_PE(j-1) and writes
//                        S^(j-1) (word 0's is the dropped zero); PE M-1
//                        also writes S^(M-1) = the three carries' sum
//
// A core serves its four words in four consecutive clocks, then hands a_i
// and q_i to the next core; the carries pass from word to word one clock
// apart, across cores too. The next quotient waits for S^0 (written at
// Q+5), hence 6 clocks an iteration; the last add is clock 8M-1. A, B < 2N
// and 4N < 2^(K*M) give S < 2N (Walter).
module perin_multiplexed #(
    parameter integer K = 16,   // word width (the paper's 16 or 32)
    parameter integer M = 8     // words, a multiple of 4: 4N < 2^(K*M)
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
    localparam integer C = M / 4;   // arithmetic cores
    reg  [K-1:0]   rb0;             // B_0 for the quotient block

    reg  [K-1:0]   sw [0:M-1];      // S_i, word j in core j/4
    wire           fire;
    wire [K-1:0]   a_now, q_now;
    // Per core, packed (core c at c*width): each stage's valid bit and slot
    // (the word within the core), and what a stage leaves the next.
    reg  [C-1:0]   v0, v1, v2, v3;
    reg  [2*C-1:0] r0, r1, r2, r3;
    reg  [K*C-1:0] a0, q0;          // a_i, q_i as core c holds them
    reg  [K*C-1:0] a1, q1, b1, n1;  // the RAM read's output
    reg  [2*K*C-1:0] pab, pqn;      // the multiplier's products
    reg  [K*C-1:0] lsab, lqn;       // the low words for the PEs
    reg  [K*C-1:0] csab, cqn;       // the carries C_SaB, C_qN
    reg  [C-1:0]   cpe;             // the carry C_PE
    wire [(K+1)*C-1:0] pe;          // each core's PE sum this clock

    genvar j, c;
    generate
        for (j = 0; j < M; j = j + 1) begin : word
            assign s[K*j +: K] = sw[j];
        end
    endgenerate

    // The control and quotient blocks: q_i every 6 clocks from clock M+2.
    perin_control #(.K(K), .M(M), .FIRST(M + 2), .STEP(6), .LAST(8 * M - 1)) ctl (
        .clk(clk), .rst(rst), .start(start), .a(a), .b0(rb0), .s0(sw[0]),
        .nprime(nprime), .busy(busy), .done(done), .fire(fire), .a_now(a_now),
        .q_now(q_now), .a_i(a_i), .q_i(q_i), .q_valid(q_valid)
    );

    always @(posedge clk) begin
        if (!busy && start) rb0 <= b[K-1:0];
    end

    generate
        // M must be whole cores of four words: elaboration fails otherwise.
        if (M % 4 != 0) begin : m_not_a_multiple_of_4
            perin_multiplexed_needs_M_a_multiple_of_4 error ();
        end
        for (c = 0; c < C; c = c + 1) begin : core
            reg  [K-1:0] ram_b [0:3];   // the core's 8 x K RAM: B and N words
            reg  [K-1:0] ram_n [0:3];
            wire [1:0]   s0 = r0[2*c +: 2], s2 = r2[2*c +: 2], s3 = r3[2*c +: 2];
            // Word 0 takes no carry; word 4c takes core c-1's.
            wire         first = (c == 0) && (s2 == 2'd0);
            wire         own2 = (s2 != 2'd0);
            wire         own3 = (s3 != 2'd0);
            wire [K-1:0] sab_c = first ? {K{1'b0}} : own2 ? csab[K*c +: K] : csab[K*((c == 0) ? 0 : c - 1) +: K];
            wire [K-1:0] qn_c  = first ? {K{1'b0}} : own2 ? cqn[K*c +: K] : cqn[K*((c == 0) ? 0 : c - 1) +: K];
            wire         pe_c  = ((c == 0) && (s3 == 2'd0)) ? 1'b0 : own3 ? cpe[c] : cpe[(c == 0) ? 0 : c - 1];
            // S^j of the core's word in slot s2 (a 4:1 multiplexer).
            wire [K-1:0] sj = (s2 == 2'd0) ? sw[4 * c] : (s2 == 2'd1) ? sw[4 * c + 1]
                            : (s2 == 2'd2) ? sw[4 * c + 2] : sw[4 * c + 3];
            wire [2*K-1:0] sab = {{K{1'b0}}, sj} + pab[2*K*c +: 2*K] + {{K{1'b0}}, sab_c};
            wire [2*K-1:0] qn  = pqn[2*K*c +: 2*K] + {{K{1'b0}}, qn_c};
            assign pe[(K+1)*c +: K+1] = {1'b0, lsab[K*c +: K]} + {1'b0, lqn[K*c +: K]} + {{K{1'b0}}, pe_c};

            always @(posedge clk) begin
                if (!busy && start) begin
                    ram_b[0] <= b[K*(4*c) +: K];     ram_n[0] <= n[K*(4*c) +: K];
                    ram_b[1] <= b[K*(4*c+1) +: K];   ram_n[1] <= n[K*(4*c+1) +: K];
                    ram_b[2] <= b[K*(4*c+2) +: K];   ram_n[2] <= n[K*(4*c+2) +: K];
                    ram_b[3] <= b[K*(4*c+3) +: K];   ram_n[3] <= n[K*(4*c+3) +: K];
                end
                if (rst || (!busy && start)) begin
                    v0[c] <= 1'b0; v1[c] <= 1'b0; v2[c] <= 1'b0; v3[c] <= 1'b0;
                    csab[K*c +: K] <= {K{1'b0}};
                    cqn[K*c +: K] <= {K{1'b0}};
                    cpe[c] <= 1'b0;
                end else begin
                    // Slot 0 begins on the quotient (core 0) or when core c-1
                    // leaves its slot 3; the core keeps a_i and q_i for its
                    // four slots.
                    if (c == 0 ? fire : (v0[(c == 0) ? 0 : c - 1] && r0[2*((c == 0) ? 0 : c - 1) +: 2] == 2'd3)) begin
                        v0[c] <= 1'b1;
                        r0[2*c +: 2] <= 2'd0;
                        a0[K*c +: K] <= (c == 0) ? a_now : a0[K*((c == 0) ? 0 : c - 1) +: K];
                        q0[K*c +: K] <= (c == 0) ? q_now : q0[K*((c == 0) ? 0 : c - 1) +: K];
                    end else if (v0[c]) begin
                        v0[c] <= (s0 != 2'd3);
                        r0[2*c +: 2] <= s0 + 2'd1;
                    end
                    // Stage 0: the RAM read.
                    v1[c] <= v0[c];
                    r1[2*c +: 2] <= s0;
                    a1[K*c +: K] <= a0[K*c +: K];
                    q1[K*c +: K] <= q0[K*c +: K];
                    b1[K*c +: K] <= ram_b[s0];
                    n1[K*c +: K] <= ram_n[s0];
                    // Stage 1: the multiplier block's two products.
                    v2[c] <= v1[c];
                    r2[2*c +: 2] <= r1[2*c +: 2];
                    pab[2*K*c +: 2*K] <= a1[K*c +: K] * b1[K*c +: K];
                    pqn[2*K*c +: 2*K] <= q1[K*c +: K] * n1[K*c +: K];
                    // Stage 2: S^j and the k-bit carries added in.
                    v3[c] <= v2[c];
                    r3[2*c +: 2] <= s2;
                    if (v2[c]) begin
                        lsab[K*c +: K] <= sab[K-1:0];
                        lqn[K*c +: K] <= qn[K-1:0];
                        csab[K*c +: K] <= sab[2*K-1:K];
                        cqn[K*c +: K] <= qn[2*K-1:K];
                    end
                    // Stage 3: the PE's add (its word is written below).
                    if (v3[c]) cpe[c] <= pe[(K+1)*c + K];
                end
            end
        end

        // S^j is written by the PE of word j+1; S^(M-1) also by PE M-1,
        // from the last word's three carries.
        for (j = 0; j < M; j = j + 1) begin : write
            localparam integer W = (j < M - 1) ? j + 1 : j;   // the writing word
            localparam integer WC = W / 4;
            localparam [1:0] WS = W[1:0];
            /* verilator lint_off UNUSEDSIGNAL */
            wire [K:0] top = {1'b0, csab[K*WC +: K]} + {1'b0, cqn[K*WC +: K]} + {{K{1'b0}}, pe[(K+1)*WC + K]};
            /* verilator lint_on UNUSEDSIGNAL */
            always @(posedge clk) begin
                if (rst || (!busy && start)) begin
                    sw[j] <= {K{1'b0}};
                end else if (v3[WC] && r3[2*WC +: 2] == WS) begin
                    sw[j] <= (j < M - 1) ? pe[(K+1)*WC +: K] : top[K-1:0];
                end
            end
        end
    endgenerate
endmodule
