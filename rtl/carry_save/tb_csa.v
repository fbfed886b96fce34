// Testbench of csa_r2 (Alg. I) or, with RADIX4 defined, csa_r4 (Alg. II),
// driven by `redc vectors csa-radix2` or `csa-radix4 --format readmemh`: for
// every case, applies the carry-save operands (A1, A2), (B1, B2) (both
// words nonzero in general; radix 4 also n' and 3n) and checks, against the
// golden model's files,
//   - every clock (one iteration each): S1, S2, A1, A2, c, A's digit and the
//     quotient digit after the edge (trace_*.mem);
//   - the cycle count (cycles.mem) and the output pair (s1.mem, s2.mem).
// `VEC is the vectors' directory (with a trailing /); vectors.vh comes from
// the same directory (-I). +vcd=FILE writes a VCD.
`timescale 1ns / 1ps
module tb_csa;
`include "vectors.vh"
    localparam integer K = BITS;
    localparam integer ROWS = COUNT * STEPS;

`include "tb_common.vh"

    reg rst = 1'b1, start = 1'b0;
    reg [K-1:0] n;
    reg [K:0] a1, a2, b1, b2;
    wire [K+1:0] s1, s2;
    wire [K:0] ra1, ra2;
    wire busy, done, c;
`ifdef RADIX4
    localparam integer RHO = 2;
    localparam UNIT = "csa-radix4";
    reg [K+1:0] n3;
    reg [1:0] nprime;
    wire [1:0] ai, qi;
    csa_r4 #(.K(K)) dut (
        .clk(clk), .rst(rst), .start(start), .n(n), .n3(n3), .nprime(nprime),
        .a1(a1), .a2(a2), .b1(b1), .b2(b2), .busy(busy), .done(done),
        .s1(s1), .s2(s2), .ra1(ra1), .ra2(ra2), .c(c), .digit(ai), .qd(qi)
    );
    reg [K+1:0] mem_n3 [0:COUNT-1];
    reg [1:0] mem_nprime [0:COUNT-1];
`else
    localparam integer RHO = 1;
    localparam UNIT = "csa-radix2";
    wire ai, qi;
    csa_r2 #(.K(K)) dut (
        .clk(clk), .rst(rst), .start(start), .n(n),
        .a1(a1), .a2(a2), .b1(b1), .b2(b2), .busy(busy), .done(done),
        .s1(s1), .s2(s2), .ra1(ra1), .ra2(ra2), .c(c), .ai(ai), .qi(qi)
    );
`endif

    reg [K-1:0] mem_n [0:COUNT-1];
    reg [K:0] mem_a1 [0:COUNT-1];
    reg [K:0] mem_a2 [0:COUNT-1];
    reg [K:0] mem_b1 [0:COUNT-1];
    reg [K:0] mem_b2 [0:COUNT-1];
    reg [K+1:0] mem_s1 [0:COUNT-1];
    reg [K+1:0] mem_s2 [0:COUNT-1];
    reg [CYCLE_BITS-1:0] mem_cycles [0:COUNT-1];
    reg [K+1:0] row_s1 [0:ROWS-1];
    reg [K+1:0] row_s2 [0:ROWS-1];
    reg [K:0] row_a1 [0:ROWS-1];
    reg [K:0] row_a2 [0:ROWS-1];
    reg row_c [0:ROWS-1];
    reg [RHO-1:0] row_ai [0:ROWS-1];
    reg [RHO-1:0] row_qi [0:ROWS-1];

    integer row, rows_checked;

    // Every clock is an iteration: the registers against the model's row k.
    task check_step;
        begin
            if (k <= STEPS) begin
                row = casei * STEPS + k - 1;
                if (s1 !== row_s1[row]) mismatch("S1");
                if (s2 !== row_s2[row]) mismatch("S2");
                if (ra1 !== row_a1[row]) mismatch("A1");
                if (ra2 !== row_a2[row]) mismatch("A2");
                if (c !== row_c[row]) mismatch("c");
                if (ai !== row_ai[row]) mismatch("digit");
                if (qi !== row_qi[row]) mismatch("quotient");
                rows_checked = rows_checked + 1;
            end
        end
    endtask

    initial begin
        start_vcd;
        $readmemh({`VEC, "n.mem"}, mem_n);
        $readmemh({`VEC, "a1.mem"}, mem_a1);
        $readmemh({`VEC, "a2.mem"}, mem_a2);
        $readmemh({`VEC, "b1.mem"}, mem_b1);
        $readmemh({`VEC, "b2.mem"}, mem_b2);
        $readmemh({`VEC, "s1.mem"}, mem_s1);
        $readmemh({`VEC, "s2.mem"}, mem_s2);
        $readmemh({`VEC, "cycles.mem"}, mem_cycles);
        $readmemh({`VEC, "trace_S1.mem"}, row_s1);
        $readmemh({`VEC, "trace_S2.mem"}, row_s2);
        $readmemh({`VEC, "trace_A1.mem"}, row_a1);
        $readmemh({`VEC, "trace_A2.mem"}, row_a2);
        $readmemh({`VEC, "trace_c.mem"}, row_c);
`ifdef RADIX4
        $readmemh({`VEC, "trace_a2i1_a2i.mem"}, row_ai);
        $readmemh({`VEC, "trace_q2i1_q2i.mem"}, row_qi);
        $readmemh({`VEC, "const_n3.mem"}, mem_n3);
        $readmemh({`VEC, "const_nprime.mem"}, mem_nprime);
`else
        $readmemh({`VEC, "trace_Ai.mem"}, row_ai);
        $readmemh({`VEC, "trace_qi.mem"}, row_qi);
`endif
        rows_checked = 0;
        repeat (2) @(negedge clk);
        rst = 1'b0;
        for (casei = 0; casei < COUNT; casei = casei + 1) begin
            n = mem_n[casei];
            a1 = mem_a1[casei]; a2 = mem_a2[casei];
            b1 = mem_b1[casei]; b2 = mem_b2[casei];
`ifdef RADIX4
            n3 = mem_n3[casei];
            nprime = mem_nprime[casei];
`endif
            run_product;
            check_cycles(mem_cycles[casei]);
            if (k != STEPS) mismatch("clocks");
            if (s1 !== mem_s1[casei] || s2 !== mem_s2[casei]) begin
                $display("FAIL case %0d: (S1, S2) = (%h, %h), model (%h, %h)", casei, s1, s2, mem_s1[casei], mem_s2[casei]);
                errors = errors + 1;
            end
            @(negedge clk);
        end
        report_and_finish(UNIT, rows_checked);
    end
endmodule
