(* The game of Mastermind and what a strategy certificate and a worst-case lower bound claim.
   These definitions are the whole specification: the theorems of Checkers.v are stated with
   them alone. *)
Require Import List Arith Bool.
Import ListNotations.

(* A game: P pegs, C colours (0 .. C-1), with or without repetition, and which answer the
   codemaker gives (black and white pegs, or black pegs only). *)
Record game := { pegs : nat; colors : nat; repetition : bool; black_only : bool }.

Definition code := list nat.

Fixpoint distinct (x : code) : bool :=
  match x with [] => true | c :: r => negb (existsb (Nat.eqb c) r) && distinct r end.

(* A code of the game: P pegs, each a colour below C, all different when repetition is off. *)
Definition is_code (G : game) (x : code) : bool :=
  (length x =? pegs G) && forallb (fun c => c <? colors G) x && (repetition G || distinct x).

(* Every list of p colours below c; the codes of the game are those that are codes. *)
Fixpoint words (p c : nat) : list code :=
  match p with
  | 0 => [[]]
  | S p' => flat_map (fun a => map (cons a) (words p' c)) (seq 0 c)
  end.
Definition codes (G : game) : list code := filter (is_code G) (words (pegs G) (colors G)).

(* Black pegs: the positions where guess and secret hold the same colour. *)
Definition blacks (x y : code) : nat :=
  length (filter (fun i => nth i x 0 =? nth i y 0) (seq 0 (length x))).
(* Black + white: the colours the two codes share, counted with multiplicity. *)
Definition common (C : nat) (x y : code) : nat :=
  list_sum (map (fun c => min (count_occ Nat.eq_dec x c) (count_occ Nat.eq_dec y c)) (seq 0 C)).

Definition answer := (nat * nat)%type.
Definition feedback (G : game) (guess secret : code) : answer :=
  if black_only G then (blacks guess secret, 0)
  else (blacks guess secret, common (colors G) guess secret - blacks guess secret).

(* A strategy is a decision tree: a guess, and for each answer the strategy that follows. *)
Inductive tree := Node : code -> list (answer * tree) -> tree.

Definition answer_eqb (a b : answer) : bool := (fst a =? fst b) && (snd a =? snd b).
Fixpoint code_eqb (x y : code) : bool :=
  match x, y with
  | [], [] => true
  | a :: x', b :: y' => (a =? b) && code_eqb x' y'
  | _, _ => false
  end.
Fixpoint next (a : answer) (children : list (answer * tree)) : option tree :=
  match children with
  | [] => None
  | (b, t) :: r => if answer_eqb a b then Some t else next a r
  end.

(* The number of guesses tree t plays against secret s before it guesses s, when that is at
   most n and every guess played is a code of the game; None otherwise. *)
Fixpoint guesses (G : game) (t : tree) (s : code) (n : nat) : option nat :=
  match n, t with
  | 0, _ => None
  | S n', Node g children =>
      if negb (is_code G g) then None
      else if code_eqb g s then Some 1
      else match next (feedback G g s) children with
           | None => None
           | Some t' => option_map S (guesses G t' s n')
           end
  end.

(* The strategy finds every secret of the game within D guesses. *)
Definition finds_every_secret_within (G : game) (t : tree) (D : nat) : Prop :=
  forall s, is_code G s = true -> exists k, k <= D /\ guesses G t s D = Some k.

(* Its histogram: entry k-1 is the number of secrets found at guess k (k = 1 .. D). *)
Definition histogram (G : game) (t : tree) (D : nat) : list nat :=
  map (fun k => length (filter (fun s => match guesses G t s D with
                                          | Some m => m =? k | None => false end) (codes G)))
      (seq 1 D).

(* Every strategy needs at least D guesses for some secret: no tree finds every secret within
   D - 1 guesses. *)
Definition every_strategy_needs (G : game) (D : nat) : Prop :=
  forall t : tree, exists s, is_code G s = true /\ guesses G t s (D - 1) = None.
