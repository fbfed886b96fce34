// 003 §II Figure 1's adders, `include`d inside a module that defines W (the
// word width): a row of full adders (a three-to-two CSA) and the
// four-to-two CSA CSR(w + x + y + z) as two such rows. Each returns
// {carry, sum}, the carry already shifted up one place.
    // One row of full adders: sum = x ^ y ^ z, carry = maj(x, y, z) << 1.
    function [2*W-1:0] fa;
        input [W-1:0] x, y, z;
        begin
            fa = {(((x & y) | (z & (x ^ y))) << 1), x ^ y ^ z};
        end
    endfunction

    // CSR(w + x + y + z): two rows of full adders; {carry, sum}.
    function [2*W-1:0] csr4;
        input [W-1:0] w, x, y, z;
        reg [2*W-1:0] first;
        begin
            first = fa(w, x, y);
            csr4 = fa(first[2*W-1:W], first[W-1:0], z);
        end
    endfunction
