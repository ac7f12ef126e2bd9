(* Extraction of the checkers to OCaml. nat becomes OCaml's int (ExtrOcamlNatInt): trusted,
   and safe here because every number is far below 2^62 (codes, counts, depths). *)
Require Import MM.Mastermind MM.Checkers.
Require Extraction ExtrOcamlBasic ExtrOcamlNatInt.
Extraction Language OCaml.
Extraction "checker.ml" check_strategy check_bound.
