(* The two checkers and their soundness theorems. *)
Require Import List Arith Bool Lia Permutation.
Require Import MM.Mastermind.
Import ListNotations.

(* ---------- Basic facts ---------- *)

Lemma code_eqb_eq : forall x y, code_eqb x y = true <-> x = y.
Proof.
  induction x as [|a x IH]; destruct y as [|b y]; simpl; split; intro H; try easy.
  - apply andb_prop in H as [H1 H2]. apply Nat.eqb_eq in H1. apply IH in H2. now subst.
  - injection H as -> ->. rewrite Nat.eqb_refl. simpl. now apply IH.
Qed.

Lemma answer_eqb_eq : forall a b, answer_eqb a b = true <-> a = b.
Proof.
  intros [a1 a2] [b1 b2]; unfold answer_eqb; simpl.
  rewrite andb_true_iff, !Nat.eqb_eq. split; [intros [-> ->]; auto | intro H; now injection H].
Qed.

Lemma words_complete : forall p c s, length s = p -> forallb (fun a => a <? c) s = true ->
  In s (words p c).
Proof.
  induction p as [|p IH]; intros c s Hl Hc.
  - destruct s; [now left | discriminate].
  - destruct s as [|a s]; [discriminate|]. simpl in *. apply andb_prop in Hc as [Ha Hs].
    apply in_flat_map. exists a. split.
    + apply in_seq. apply Nat.ltb_lt in Ha. lia.
    + apply in_map. apply IH; auto.
Qed.

Lemma in_codes : forall G s, In s (codes G) <-> is_code G s = true.
Proof.
  intros G s. unfold codes. rewrite filter_In. split; [tauto|]. intro H. split; auto.
  unfold is_code in H. apply andb_prop in H as [H _]. apply andb_prop in H as [H1 H2].
  apply Nat.eqb_eq in H1. now apply words_complete.
Qed.

Lemma guesses_bound : forall G t s n k, guesses G t s n = Some k -> 1 <= k <= n.
Proof.
  intros G t s n. revert t. induction n as [|n IH]; intros [g ch] k H; simpl in H; [discriminate|].
  destruct (negb (is_code G g)); [discriminate|]. destruct (code_eqb g s).
  - injection H as <-. lia.
  - destruct (next _ ch) as [t'|]; [|discriminate].
    destruct (guesses G t' s n) eqn:E; [|discriminate]. injection H as <-.
    apply IH in E. lia.
Qed.

Lemma guesses_more_fuel : forall G t s n k, guesses G t s n = Some k ->
  forall m, n <= m -> guesses G t s m = Some k.
Proof.
  intros G t s n. revert t. induction n as [|n IH]; intros [g ch] k H m Hm; [discriminate|].
  destruct m as [|m]; [lia|]. simpl in *.
  destruct (negb (is_code G g)); [discriminate|]. destruct (code_eqb g s); [assumption|].
  destruct (next _ ch) as [t'|]; [|discriminate].
  destruct (guesses G t' s n) eqn:E; [|discriminate].
  rewrite (IH _ _ E m) by lia. assumption.
Qed.

(* ---------- The strategy checker ---------- *)

Fixpoint nat_list_eqb (x y : list nat) : bool :=
  match x, y with
  | [], [] => true
  | a :: x', b :: y' => (a =? b) && nat_list_eqb x' y'
  | _, _ => false
  end.

Lemma nat_list_eqb_eq : forall x y, nat_list_eqb x y = true -> x = y.
Proof.
  induction x; destruct y; simpl; intro H; try easy.
  apply andb_prop in H as [H1 H2]. apply Nat.eqb_eq in H1. apply IHx in H2. now subst.
Qed.

(* Plays the tree against every code of the game (enumerated here, never read), compares the
   histogram, and the claims derived from it: the number of secrets, the total of guesses, and
   that D is the maximum (some secret needs guess D). *)
Definition total_of (h : list nat) : nat :=
  list_sum (map (fun k => k * nth (k - 1) h 0) (seq 1 (length h))).

Definition check_strategy (G : game) (t : tree) (D : nat) (claimed : list nat)
    (secrets total : nat) : bool :=
  forallb (fun s => match guesses G t s D with Some _ => true | None => false end) (codes G)
  && nat_list_eqb claimed (histogram G t D)
  && (secrets =? length (codes G)) && (total =? total_of claimed)
  && negb (nth (D - 1) claimed 0 =? 0).

Theorem strategy_checker_sound : forall G t D claimed secrets total,
  check_strategy G t D claimed secrets total = true ->
  finds_every_secret_within G t D /\ histogram G t D = claimed
  /\ secrets = length (codes G) /\ total = total_of (histogram G t D)
  /\ nth (D - 1) (histogram G t D) 0 <> 0.
Proof.
  intros G t D claimed secrets total H. unfold check_strategy in H.
  repeat rewrite andb_true_iff in H. destruct H as [[[[H1 H2] H3] H4] H5].
  apply nat_list_eqb_eq in H2. subst claimed.
  apply Nat.eqb_eq in H3. apply Nat.eqb_eq in H4. apply negb_true_iff, Nat.eqb_neq in H5.
  repeat split; auto.
  intros s Hs. rewrite forallb_forall in H1. apply in_codes in Hs. specialize (H1 s Hs).
  destruct (guesses G t s D) as [k|] eqn:E; [|discriminate].
  exists k. apply guesses_bound in E. split; [lia | reflexivity].
Qed.
