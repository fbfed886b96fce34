// Testbench of fdfm_mm driven by `redc vectors fdfm --format readmemh`:
// for every case, loads X = a, Y = b and M = n digit by digit over the host
// port, runs one product and checks, against the golden model's files,
//   - every clock: t, q, Ca, alpha, Cb, Cg, Cs and Sw after the edge
//     (clock_*.mem, row by row with clock_cycle.mem);
//   - the cycle count (cycles.mem) and the output S (result.mem).
// `VEC is the vectors' directory (with a trailing /); vectors.vh comes from
// the same directory (-I). +vcd=FILE writes a VCD.
`timescale 1ns / 1ps
module tb_fdfm;
`include "vectors.vh"
    localparam integer D  = DIGITS;
    localparam integer AW = $clog2(D + 1);
    localparam integer ROWS = (CLOCKS > 0) ? COUNT * CLOCKS : 1;

`include "tb_common.vh"

    reg rst = 1'b1, start = 1'b0, we = 1'b0;
    reg [2:0] wbank = 3'd0, rbank = 3'd3;
    reg [AW-1:0] waddr = {AW{1'b0}}, raddr = {AW{1'b0}};
    reg [16:0] wdata = 17'd0, minv = 17'd0;
    wire [16:0] rdata, t, q, ca, alpha, cb, sw;
    wire busy, done, last, cg, cs;

    fdfm_mm #(.D(D)) dut (
        .clk(clk), .rst(rst), .start(start),
        .xb(3'd1), .yb(3'd2), .sb(3'd3), .minv(minv),
        .we(we), .wbank(wbank), .waddr(waddr), .wdata(wdata),
        .raddr(raddr), .rbank(rbank), .rdata(rdata), .busy(busy), .done(done), .last(last),
        .t(t), .q(q), .ca(ca), .alpha(alpha), .cb(cb), .cg(cg), .cs(cs), .sw(sw)
    );

    reg [OPERAND_BITS-1:0] mem_a [0:COUNT-1];
    reg [OPERAND_BITS-1:0] mem_b [0:COUNT-1];
    reg [OPERAND_BITS-1:0] mem_result [0:COUNT-1];
    reg [BITS-1:0]         mem_n [0:COUNT-1];
    reg [16:0]             mem_minv [0:COUNT-1];
    reg [CYCLE_BITS-1:0]   mem_cycles [0:COUNT-1];
    reg [31:0] row_cycle [0:ROWS-1];
    reg [16:0] row_t [0:ROWS-1];
    reg [16:0] row_q [0:ROWS-1];
    reg [16:0] row_ca [0:ROWS-1];
    reg [16:0] row_alpha [0:ROWS-1];
    reg [16:0] row_cb [0:ROWS-1];
    reg        row_cg [0:ROWS-1];
    reg        row_cs [0:ROWS-1];
    reg [16:0] row_sw [0:ROWS-1];

    reg [17*D-1:0] x, y, m, s;
    integer rows_checked, row;

    // Every clock: the registers against the model's clock trace row k.
    task check_step;
        begin
            if (CLOCKS > 0 && k <= CLOCKS) begin
                row = casei * CLOCKS + k - 1;
                if (row_cycle[row] != k) mismatch("cycle");
                if (t !== row_t[row]) mismatch("t");
                if (q !== row_q[row]) mismatch("q");
                if (ca !== row_ca[row]) mismatch("Ca");
                if (alpha !== row_alpha[row]) mismatch("alpha");
                if (cb !== row_cb[row]) mismatch("Cb");
                if (cg !== row_cg[row]) mismatch("Cg");
                if (cs !== row_cs[row]) mismatch("Cs");
                if (sw !== row_sw[row]) mismatch("Sw");
                rows_checked = rows_checked + 1;
            end
        end
    endtask

    // Banks: M in 0 (the design's), X in 1, Y in 2, S written to 3.
`include "tb_fdfm_port.vh"

    initial begin
        start_vcd;
        $readmemh({`VEC, "a.mem"}, mem_a);
        $readmemh({`VEC, "b.mem"}, mem_b);
        $readmemh({`VEC, "n.mem"}, mem_n);
        $readmemh({`VEC, "result.mem"}, mem_result);
        $readmemh({`VEC, "const_minv.mem"}, mem_minv);
        $readmemh({`VEC, "cycles.mem"}, mem_cycles);
        if (CLOCKS > 0) begin
            $readmemh({`VEC, "clock_cycle.mem"}, row_cycle);
            $readmemh({`VEC, "clock_t.mem"}, row_t);
            $readmemh({`VEC, "clock_q.mem"}, row_q);
            $readmemh({`VEC, "clock_Ca.mem"}, row_ca);
            $readmemh({`VEC, "clock_alpha.mem"}, row_alpha);
            $readmemh({`VEC, "clock_Cb.mem"}, row_cb);
            $readmemh({`VEC, "clock_Cg.mem"}, row_cg);
            $readmemh({`VEC, "clock_Cs.mem"}, row_cs);
            $readmemh({`VEC, "clock_Sw.mem"}, row_sw);
        end
        rows_checked = 0;
        repeat (2) @(negedge clk);
        rst = 1'b0;
        for (casei = 0; casei < COUNT; casei = casei + 1) begin
            x = mem_a[casei];
            y = mem_b[casei];
            m = mem_n[casei];
            minv = mem_minv[casei];
            load(3'd1, x);
            load(3'd2, y);
            load(3'd0, m);
            @(negedge clk);
            run_product;
            check_cycles(mem_cycles[casei]);
            if (CLOCKS > 0 && k != CLOCKS) begin
                $display("FAIL case %0d: %0d cycles, the clock trace has %0d", casei, k, CLOCKS);
                errors = errors + 1;
            end
            fetch(3'd3, s);
            if (s !== mem_result[casei]) begin
                $display("FAIL case %0d: S = %h, model %h", casei, s, mem_result[casei]);
                errors = errors + 1;
            end
        end
        report_and_finish("fdfm", rows_checked);
    end
endmodule
