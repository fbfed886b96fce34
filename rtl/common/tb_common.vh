// Shared by the testbenches, `include`d inside the module after vectors.vh:
// the 10 ns clock, a VCD on +vcd=FILE, the mismatch count with the case and
// clock it happened at, one run from start to done with the clocks counted
// and the testbench's own `check_step` task called after every clock edge,
// the cycle check, and the closing PASS/FAIL line the Makefile reads.
    reg clk = 1'b0;
    always #5 clk = ~clk;

    integer casei;   // the case being run
    integer k;       // clocks since start (the model's cycle number)
    integer errors = 0;
    reg [1023:0] vcd_file;

    task start_vcd;
        begin
            if ($value$plusargs("vcd=%s", vcd_file)) begin
                $dumpfile(vcd_file);
                $dumpvars(0);
            end
        end
    endtask

    task mismatch(input [8*8-1:0] name);
        begin
            if (errors < 10) $display("FAIL case %0d cycle %0d: %0s differs from the model", casei, k, name);
            errors = errors + 1;
        end
    endtask

    // Pulses start for one clock, then counts the clocks (k) from the edge
    // after it to the edge that raises done, calling check_step after each.
    task run_product;
        begin
            start = 1'b1;
            @(negedge clk);
            start = 1'b0;
            k = 0;
            while (!done) begin
                @(posedge clk);
                #1;
                k = k + 1;
                check_step;
            end
        end
    endtask

    task check_cycles(input integer want);
        begin
            if (k != want) begin
                $display("FAIL case %0d: %0d cycles, model %0d", casei, k, want);
                errors = errors + 1;
            end
        end
    endtask

    task report_and_finish(input [8*24-1:0] unit, input integer rows);
        begin
            if (errors == 0 && rows > 0)
                $display("PASS %0s: %0d cases of %0d bits, results, cycles and %0d trace rows equal to the model",
                         unit, COUNT, BITS, rows);
            else if (errors == 0)
                $display("PASS %0s: %0d cases of %0d bits, results and cycles equal to the model",
                         unit, COUNT, BITS);
            else
                $display("FAIL %0s: %0d mismatches", unit, errors);
            $finish;
        end
    endtask
