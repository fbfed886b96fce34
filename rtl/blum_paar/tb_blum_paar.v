// Testbench of blum_paar_array driven by `redc vectors blum-paar --format
// readmemh`: loads M~ (const_mtilde.mem) once per case, then runs one lone
// product MONT(A, B) in a slot and checks, against the golden model's
// files, S, q_i and a_i after every iteration (trace_S.mem, trace_q.mem,
// trace_a.mem), the cycle count (cycles.mem) and the output (result.mem).
// `VEC is the vectors' directory (with a trailing /); vectors.vh comes from
// the same directory (-I). +vcd=FILE writes a VCD.
`timescale 1ns / 1ps
module tb_blum_paar;
`include "vectors.vh"
`include "tb_common.vh"
    localparam integer K = DIGIT_BITS;
    localparam integer M = DIGITS;
    localparam integer ROWS = COUNT * STEPS;

    reg rst = 1'b1, start = 1'b0, load = 1'b0;
    reg [K*(M+1)-1:0] mtilde;
    reg [K*(M+2)-1:0] a, b;
    wire [K*(M+3)-1:0] s0, s1;
    wire [K-1:0] q_o, a_o;
    wire ready, busy, done, it_valid;

    blum_paar_array #(.K(K), .M(M)) dut (
        .clk(clk), .rst(rst), .load(load), .mtilde(mtilde), .ready(ready),
        .start(start), .two(1'b0), .a0(a), .a1({(K*(M+2)){1'b0}}), .b(b),
        .busy(busy), .done(done), .s0(s0), .s1(s1),
        .it_valid(it_valid), .q_o(q_o), .a_o(a_o)
    );

    reg [OPERAND_BITS-1:0] mem_a [0:COUNT-1];
    reg [OPERAND_BITS-1:0] mem_b [0:COUNT-1];
    reg [OPERAND_BITS-1:0] mem_result [0:COUNT-1];
    reg [BITS+K-1:0]       mem_mtilde [0:COUNT-1];
    reg [CYCLE_BITS-1:0]   mem_cycles [0:COUNT-1];
    reg [K*(M+3)-1:0]      row_s [0:ROWS-1];
    reg [K-1:0]            row_q [0:ROWS-1];
    reg [K-1:0]            row_a [0:ROWS-1];
    integer it, rows_checked;

    // After each iteration of the product: S, q_i and a_i against the
    // model's iteration it.
    task check_step;
        begin
            if (it_valid) begin
                if (it >= STEPS) mismatch("steps");
                else begin
                    if (s0 !== row_s[casei * STEPS + it]) mismatch("S");
                    if (q_o !== row_q[casei * STEPS + it]) mismatch("q_i");
                    if (a_o !== row_a[casei * STEPS + it]) mismatch("a_i");
                    rows_checked = rows_checked + 1;
                end
                it = it + 1;
            end
        end
    endtask

    initial begin
        start_vcd;
        $readmemh({`VEC, "a.mem"}, mem_a);
        $readmemh({`VEC, "b.mem"}, mem_b);
        $readmemh({`VEC, "result.mem"}, mem_result);
        $readmemh({`VEC, "const_mtilde.mem"}, mem_mtilde);
        $readmemh({`VEC, "cycles.mem"}, mem_cycles);
        $readmemh({`VEC, "trace_S.mem"}, row_s);
        $readmemh({`VEC, "trace_q.mem"}, row_q);
        $readmemh({`VEC, "trace_a.mem"}, row_a);
        rows_checked = 0;
        repeat (2) @(negedge clk);
        rst = 1'b0;
        for (casei = 0; casei < COUNT; casei = casei + 1) begin
            mtilde = mem_mtilde[casei];
            load = 1'b1;
            @(negedge clk);
            load = 1'b0;
            while (!ready) @(negedge clk);
            a = mem_a[casei];
            b = mem_b[casei];
            it = 0;
            run_product;
            if (it != STEPS) mismatch("steps");
            check_cycles(mem_cycles[casei]);
            if (s0 !== mem_result[casei]) begin
                $display("FAIL case %0d: S = %h, model %h", casei, s0, mem_result[casei]);
                errors = errors + 1;
            end
            @(negedge clk);
        end
        report_and_finish("blum-paar", rows_checked);
    end
endmodule
