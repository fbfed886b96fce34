// Testbench of fdfm_exp driven by `redc vectors fdfm --exponent-bits B
// --format readmemh`: for every case, loads M, R2 = 2^(34D) mod M, the
// number 1 and the base into banks 0-3 over the host port, runs Alg. 2 on
// the exponent and checks, against the golden model's files, the output
// (M read as 0, as the host maps it), the product count and the clock count.
// `VEC is the vectors' directory (with a trailing /); vectors.vh comes from
// the same directory (-I). +vcd=FILE writes a VCD.
`timescale 1ns / 1ps
module tb_fdfm_exp;
`include "vectors.vh"
`include "tb_common.vh"
    localparam integer D   = DIGITS;
    localparam integer AW  = $clog2(D + 1);
    localparam integer EW  = (EXP_BITS > 0) ? EXP_BITS : 1;
    localparam integer EBW = $clog2(EW + 1);

    reg rst = 1'b1, start = 1'b0, we = 1'b0;
    reg [2:0] wbank = 3'd0, rbank = 3'd0;
    reg [AW-1:0] waddr = {AW{1'b0}}, raddr = {AW{1'b0}};
    reg [16:0] wdata = 17'd0, minv = 17'd0;
    reg [EW-1:0] e = {EW{1'b0}};
    wire [16:0] rdata;
    wire busy, done;
    wire [2:0] cbank;
    wire [31:0] products;

    fdfm_exp #(.D(D), .EW(EW)) dut (
        .clk(clk), .rst(rst), .start(start), .minv(minv), .e(e), .ebits(EW[EBW-1:0]),
        .we(we), .wbank(wbank), .waddr(waddr), .wdata(wdata),
        .raddr(raddr), .rbank(rbank), .rdata(rdata),
        .busy(busy), .done(done), .cbank(cbank), .products(products)
    );

    reg [BITS-1:0]       mem_n [0:COUNT-1];
    reg [BITS-1:0]       mem_r2 [0:COUNT-1];
    reg [BITS-1:0]       mem_a [0:COUNT-1];
    reg [EW-1:0]         mem_e [0:COUNT-1];
    reg [BITS-1:0]       mem_result [0:COUNT-1];
    reg [63:0]           mem_products [0:COUNT-1];
    reg [16:0]           mem_minv [0:COUNT-1];
    reg [CYCLE_BITS-1:0] mem_cycles [0:COUNT-1];

    reg [17*D-1:0] m, r2, p, s;

    // Only the output and the counts are checked, not the registers.
    task check_step;
        begin
        end
    endtask

`include "tb_fdfm_port.vh"

    initial begin
        start_vcd;
        $readmemh({`VEC, "n.mem"}, mem_n);
        $readmemh({`VEC, "r2.mem"}, mem_r2);
        $readmemh({`VEC, "a.mem"}, mem_a);
        $readmemh({`VEC, "e.mem"}, mem_e);
        $readmemh({`VEC, "result.mem"}, mem_result);
        $readmemh({`VEC, "products.mem"}, mem_products);
        $readmemh({`VEC, "const_minv.mem"}, mem_minv);
        $readmemh({`VEC, "cycles.mem"}, mem_cycles);
        repeat (2) @(negedge clk);
        rst = 1'b0;
        for (casei = 0; casei < COUNT; casei = casei + 1) begin
            m = mem_n[casei];
            r2 = mem_r2[casei];
            p = mem_a[casei];
            minv = mem_minv[casei];
            e = mem_e[casei];
            load(3'd0, m);
            load(3'd1, r2);
            load(3'd2, 1);
            load(3'd3, p);
            @(negedge clk);
            run_product;
            fetch(cbank, s);
            if (s == m) s = 0;
            if (s !== mem_result[casei]) mismatch("result");
            if (products != mem_products[casei]) mismatch("products");
            check_cycles(mem_cycles[casei]);
        end
        report_and_finish("fdfm-exp", 0);
    end
endmodule
