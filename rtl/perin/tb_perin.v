// Testbench of perin_systolic (`redc vectors perin-systolic --format
// readmemh`) or, with MULTIPLEXED defined, perin_multiplexed (`redc vectors
// perin-multiplexed`): for every case, applies A, B, N and N' and checks,
// against the golden model's files, a_i and q_i of every iteration as the
// quotient block forms them (trace_a_i.mem, trace_q_i.mem), the cycle count
// (cycles.mem) and the output S (result.mem). `VEC is the vectors'
// directory (with a trailing /); vectors.vh comes from the same directory
// (-I). +vcd=FILE writes a VCD.
`timescale 1ns / 1ps
module tb_perin;
`include "vectors.vh"
`include "tb_common.vh"
    localparam integer K = DIGIT_BITS;
    localparam integer M = DIGITS;
    localparam integer ROWS = COUNT * STEPS;

    reg rst = 1'b1, start = 1'b0;
    reg [K*M-1:0] a, b, n;
    reg [K-1:0] nprime;
    wire [K*M-1:0] s;
    wire [K-1:0] a_i, q_i;
    wire busy, done, q_valid;

`ifdef MULTIPLEXED
    localparam UNIT = "perin-multiplexed";
    perin_multiplexed #(.K(K), .M(M)) dut (
`else
    localparam UNIT = "perin-systolic";
    perin_systolic #(.K(K), .M(M)) dut (
`endif
        .clk(clk), .rst(rst), .start(start), .a(a), .b(b), .n(n), .nprime(nprime),
        .busy(busy), .done(done), .s(s), .a_i(a_i), .q_i(q_i), .q_valid(q_valid)
    );

    reg [BITS-1:0]         mem_n [0:COUNT-1];
    reg [OPERAND_BITS-1:0] mem_a [0:COUNT-1];
    reg [OPERAND_BITS-1:0] mem_b [0:COUNT-1];
    reg [OPERAND_BITS-1:0] mem_result [0:COUNT-1];
    reg [K-1:0]            mem_nprime [0:COUNT-1];
    reg [CYCLE_BITS-1:0]   mem_cycles [0:COUNT-1];
    reg [K-1:0]            row_a [0:ROWS-1];
    reg [K-1:0]            row_q [0:ROWS-1];
    integer it, rows_checked;

    // After each quotient: a_i and q_i against the model's iteration it.
    task check_step;
        begin
            if (q_valid) begin
                if (it >= STEPS) mismatch("steps");
                else begin
                    if (a_i !== row_a[casei * STEPS + it]) mismatch("a_i");
                    if (q_i !== row_q[casei * STEPS + it]) mismatch("q_i");
                    rows_checked = rows_checked + 1;
                end
                it = it + 1;
            end
        end
    endtask

    initial begin
        start_vcd;
        $readmemh({`VEC, "n.mem"}, mem_n);
        $readmemh({`VEC, "a.mem"}, mem_a);
        $readmemh({`VEC, "b.mem"}, mem_b);
        $readmemh({`VEC, "result.mem"}, mem_result);
        $readmemh({`VEC, "const_nprime.mem"}, mem_nprime);
        $readmemh({`VEC, "cycles.mem"}, mem_cycles);
        $readmemh({`VEC, "trace_a_i.mem"}, row_a);
        $readmemh({`VEC, "trace_q_i.mem"}, row_q);
        rows_checked = 0;
        repeat (2) @(negedge clk);
        rst = 1'b0;
        for (casei = 0; casei < COUNT; casei = casei + 1) begin
            n = mem_n[casei];
            a = mem_a[casei];
            b = mem_b[casei];
            nprime = mem_nprime[casei];
            it = 0;
            run_product;
            if (it != STEPS) mismatch("steps");
            check_cycles(mem_cycles[casei]);
            if (s !== mem_result[casei]) begin
                $display("FAIL case %0d: S = %h, model %h", casei, s, mem_result[casei]);
                errors = errors + 1;
            end
            @(negedge clk);
        end
        report_and_finish(UNIT, rows_checked);
    end
endmodule
