(* Extraction of the checkers to OCaml. nat becomes OCaml's int (ExtrOcamlNatInt): trusted,
   and safe here because every number is far below 2^62 (codes, counts, depths). *)
Require Import MM.Mastermind MM.Checkers.
Require Extraction ExtrOcamlBasic ExtrOcamlNatInt.
Extraction Language OCaml.
(* The comparisons of ExtrOcamlNatInt, typed at int: OCaml's (=), (<=), min and max are polymorphic
   (a C call comparing any two values) where the argument type is not known; at int they are
   one machine instruction. Same meaning, on the same integers (sub: max 0 (n - m)). *)
Extract Inlined Constant Coq.Init.Nat.eqb => "Int.equal".
Extract Inlined Constant Coq.Arith.PeanoNat.Nat.eqb => "Int.equal".
Extract Inlined Constant Coq.Init.Nat.leb => "(fun (n : int) m -> n <= m)".
Extract Inlined Constant Coq.Arith.PeanoNat.Nat.leb => "(fun (n : int) m -> n <= m)".
Extract Inlined Constant Coq.Init.Nat.ltb => "(fun (n : int) m -> n < m)".
Extract Inlined Constant Coq.Arith.PeanoNat.Nat.ltb => "(fun (n : int) m -> n < m)".
Extract Inlined Constant min => "Int.min".
Extract Inlined Constant Coq.Init.Nat.sub => "(fun (n : int) m -> if n <= m then 0 else n - m)".
Extract Inlined Constant Coq.Arith.PeanoNat.Nat.eq_dec => "Int.equal".
Extraction "checker.ml" check_strategy check_bound.
