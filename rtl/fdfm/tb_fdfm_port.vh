// Shared by the FDFM testbenches, `include`d inside the module after D and
// AW: whole numbers written to and read from the design's RAM banks over
// its host port (we, wbank, waddr, wdata; rbank, raddr, rdata), one 17-bit
// digit per two clocks, least significant first.
    task load(input [2:0] bank, input [17*D-1:0] value);
        integer r;
        begin
            for (r = 0; r < D; r = r + 1) begin
                @(negedge clk);
                we = 1'b1; wbank = bank; waddr = r[AW-1:0]; wdata = value[17*r +: 17];
                @(negedge clk);
                we = 1'b0;
            end
        end
    endtask

    task fetch(input [2:0] bank, output [17*D-1:0] value);
        integer r;
        begin
            rbank = bank;
            for (r = 0; r < D; r = r + 1) begin
                raddr = r[AW-1:0];
                #1;
                value[17*r +: 17] = rdata;
            end
        end
    endtask
