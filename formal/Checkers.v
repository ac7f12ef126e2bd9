(* The two checkers and their soundness theorems. *)
Require Import List Arith Bool Lia Permutation Orders Mergesort.
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

(* ---------- Lower bounds: the claim of a node ---------- *)

(* X is hard within k: every tree leaves some secret of X unfound within k guesses. *)
Definition hard (G : game) (X : list code) (k : nat) : Prop :=
  forall t, exists s, In s X /\ guesses G t s k = None.

(* The secrets of X other than g that give answer a to guess g. *)
Definition class (G : game) (g : code) (a : answer) (X : list code) : list code :=
  filter (fun s => negb (code_eqb g s) && answer_eqb (feedback G g s) a) X.

Lemma in_class : forall G g a X s, In s (class G g a X) ->
  In s X /\ g <> s /\ feedback G g s = a.
Proof.
  intros G g a X s H. unfold class in H. apply filter_In in H as [H1 H2].
  apply andb_prop in H2 as [H2 H3]. apply negb_true_iff in H2. apply answer_eqb_eq in H3.
  repeat split; auto. intro E. subst. rewrite (proj2 (code_eqb_eq s s) eq_refl) in H2. discriminate.
Qed.

(* The guess rule: if every guess that is a code leaves a class hard within k, X is hard
   within k + 1 (a guess that is not a code finds nothing). *)
Lemma hard_by_guesses : forall G X k, X <> [] ->
  (forall g, is_code G g = true -> exists a, hard G (class G g a X) k) -> hard G X (S k).
Proof.
  intros G X k Hne H [g ch].
  destruct (is_code G g) eqn:Hg.
  - destruct (H g Hg) as [a Ha]. destruct (next a ch) as [t'|] eqn:E.
    + destruct (Ha t') as [s [Hs Hn]]. apply in_class in Hs as [Hs [Hgs Ha']].
      exists s. split; auto. simpl. rewrite Hg. simpl.
      destruct (code_eqb g s) eqn:Eq; [apply code_eqb_eq in Eq; contradiction|].
      rewrite Ha', E, Hn. reflexivity.
    + destruct (Ha (Node g ch)) as [s [Hs _]]. apply in_class in Hs as [Hs [Hgs Ha']].
      exists s. split; auto. simpl. rewrite Hg. simpl.
      destruct (code_eqb g s) eqn:Eq; [apply code_eqb_eq in Eq; contradiction|].
      rewrite Ha', E. reflexivity.
  - destruct X as [|s X]; [contradiction|]. exists s. split; [now left|]. simpl. now rewrite Hg.
Qed.

(* ---------- The counting bound ---------- *)

(* Every answer a guess can give to another code: B + W <= P, B < P (B = P is the win), not
   (P - 1, 1) (no_almost_win below), and without repetition B + W >= 2P - C (common_norep). *)
Definition answers (G : game) : list answer :=
  if black_only G then map (fun b => (b, 0)) (seq 0 (pegs G))
  else filter (fun a => negb (answer_eqb a (pegs G, 0)) && negb (answer_eqb a (pegs G - 1, 1))
                        && (repetition G || (2 * pegs G - colors G <=? fst a + snd a)))
         (flat_map (fun b => map (fun w => (b, w)) (seq 0 (S (pegs G) - b))) (seq 0 (S (pegs G)))).

(* most b k: the most secrets a tree can find within k guesses when a guess has at most b
   answers besides the win. *)
Fixpoint most (b k : nat) : nat := match k with 0 => 0 | S k' => 1 + b * most b k' end.

(* The same comparison with numbers that stay below n (b times n at most): extracted to OCaml's
   63-bit integers, most b k itself would overflow for large k. *)
Fixpoint most_sat (b k n : nat) : nat :=
  match k with
  | 0 => 0
  | S k' => let m := most_sat b k' n in if n <=? m then n else min n (1 + b * m)
  end.

Lemma most_0 : forall k, most 0 k <= 1.
Proof. destruct k; simpl; lia. Qed.

Lemma most_sat_min : forall b k n, most_sat b k n = Nat.min n (most b k).
Proof.
  intros b k n. induction k as [|k IH]; simpl; [lia|]. rewrite IH.
  destruct (n <=? Nat.min n (most b k)) eqn:E.
  - apply Nat.leb_le in E. destruct b as [|b].
    + pose proof (most_0 k). simpl. lia.
    + assert (most (S b) k <= S b * most (S b) k) by nia. lia.
  - apply Nat.leb_gt in E. assert (Nat.min n (most b k) = most b k) as -> by lia. reflexivity.
Qed.

Lemma filter_length_le : forall A (f : A -> bool) l, length (filter f l) <= length l.
Proof. induction l; simpl; auto. destruct (f a); simpl; lia. Qed.

Lemma filter_length_all : forall A (f : A -> bool) l,
  length (filter f l) = length l -> forall x, In x l -> f x = true.
Proof.
  induction l as [|a l IH]; simpl; intros H x Hx; [contradiction|].
  destruct (f a) eqn:E.
  - destruct Hx as [<-|Hx]; [assumption|]. apply IH; [simpl in H; lia|assumption].
  - pose proof (filter_length_le A f l). simpl in H. lia.
Qed.

Lemma blacks_le : forall x y, blacks x y <= length x.
Proof.
  intros. unfold blacks. rewrite <- (seq_length (length x) 0) at 2. apply filter_length_le.
Qed.

Lemma blacks_all : forall x y, length x = length y -> blacks x y = length x -> x = y.
Proof.
  intros x y Hl H. apply nth_ext with 0 0; auto. intros n Hn.
  pose proof (filter_length_all _ _ _ (eq_trans H (eq_sym (seq_length _ 0))) n) as F.
  apply Nat.eqb_eq, F, in_seq. lia.
Qed.

Lemma sum_indicator_0 : forall (a : nat) l, ~ In a l ->
  list_sum (map (fun c => if Nat.eq_dec a c then 1 else 0) l) = 0.
Proof.
  induction l as [|c l IH]; simpl; intro H; auto.
  destruct (Nat.eq_dec a c); [exfalso; auto|]. rewrite IH; auto.
Qed.

Lemma sum_indicator_1 : forall (a : nat) l, NoDup l -> In a l ->
  list_sum (map (fun c => if Nat.eq_dec a c then 1 else 0) l) = 1.
Proof.
  induction l as [|c l IH]; simpl; intros Hn H; [contradiction|]. inversion Hn; subst.
  destruct (Nat.eq_dec a c).
  - subst. rewrite sum_indicator_0; auto.
  - destruct H; [congruence|]. rewrite IH; auto.
Qed.

Lemma list_sum_map_add : forall A (f g : A -> nat) l,
  list_sum (map (fun x => f x + g x) l) = list_sum (map f l) + list_sum (map g l).
Proof. induction l; simpl; auto. rewrite IHl. lia. Qed.

Lemma list_sum_map_le : forall A (f g : A -> nat) l, (forall x, In x l -> f x <= g x) ->
  list_sum (map f l) <= list_sum (map g l).
Proof.
  induction l; simpl; intros H; auto. specialize (IHl (fun x Hx => H x (or_intror Hx))).
  specialize (H a (or_introl eq_refl)). lia.
Qed.

Lemma sum_counts : forall C x, forallb (fun a => a <? C) x = true ->
  list_sum (map (fun c => count_occ Nat.eq_dec x c) (seq 0 C)) = length x.
Proof.
  induction x as [|a x IH]; intro H.
  - simpl. induction (seq 0 C); simpl; auto.
  - simpl in H. apply andb_prop in H as [Ha H]. apply Nat.ltb_lt in Ha.
    rewrite (map_ext (fun c => count_occ Nat.eq_dec (a :: x) c)
               (fun c => (if Nat.eq_dec a c then 1 else 0) + count_occ Nat.eq_dec x c)).
    + rewrite list_sum_map_add, sum_indicator_1.
      * simpl. f_equal. exact (IH H).
      * apply seq_NoDup.
      * apply in_seq. lia.
    + intro c. simpl. destruct (Nat.eq_dec a c); reflexivity.
Qed.

Lemma common_le : forall G x y, is_code G x = true -> common (colors G) x y <= pegs G.
Proof.
  intros G x y H. unfold is_code in H. apply andb_prop in H as [H _]. apply andb_prop in H as [H1 H2].
  apply Nat.eqb_eq in H1. unfold common. rewrite <- H1, <- (sum_counts (colors G) x H2).
  apply list_sum_map_le. intros. lia.
Qed.

Lemma code_length : forall G x, is_code G x = true -> length x = pegs G.
Proof.
  intros G x H. unfold is_code in H. apply andb_prop in H as [H _]. apply andb_prop in H as [H _].
  now apply Nat.eqb_eq.
Qed.

Lemma filter_map_length : forall A B (f : B -> bool) (h : A -> B) l,
  length (filter f (map h l)) = length (filter (fun x => f (h x)) l).
Proof. induction l; simpl; auto. destruct (f (h a)); simpl; auto. Qed.

(* Black pegs by walking both codes at once (the definition indexes them with nth). *)
Fixpoint blacks_fast (x y : code) : nat :=
  match x, y with
  | a :: x', b :: y' => (if a =? b then 1 else 0) + blacks_fast x' y'
  | _, _ => 0
  end.

Lemma blacks_fast_eq : forall x y, length x = length y -> blacks_fast x y = blacks x y.
Proof.
  induction x as [|a x IH]; destruct y as [|b y]; simpl; intro H; try discriminate; [reflexivity|].
  rewrite IH by lia. unfold blacks. simpl. rewrite <- seq_shift.
  destruct (a =? b); simpl; rewrite filter_map_length; reflexivity.
Qed.

Lemma blacks_fast_le : forall x y, blacks_fast x y <= length x.
Proof.
  induction x as [|a x IH]; destruct y as [|b y]; simpl; try lia.
  specialize (IH y). destruct (a =? b); lia.
Qed.

Lemma blacks_fast_all : forall x y, length x = length y -> blacks_fast x y = length x -> x = y.
Proof.
  induction x as [|a x IH]; destruct y as [|b y]; simpl; intros Hl H; try discriminate; auto.
  pose proof (blacks_fast_le x y). destruct (a =? b) eqn:E; [|lia].
  apply Nat.eqb_eq in E. subst. f_equal. apply IH; lia.
Qed.

(* Codes of equal length that differ in exactly one position. *)
Lemma one_off : forall x y, length x = length y -> blacks_fast x y + 1 = length x ->
  exists u v a b, x = u ++ a :: v /\ y = u ++ b :: v /\ a <> b.
Proof.
  induction x as [|a x IH]; destruct y as [|b y]; simpl; intros Hl H; try discriminate.
  destruct (a =? b) eqn:E.
  - apply Nat.eqb_eq in E. subst. destruct (IH y) as (u & v & a' & b' & -> & -> & Hab); [lia|lia|].
    exists (b :: u), v, a', b'. auto.
  - apply Nat.eqb_neq in E. exists [], x, a, b. rewrite (blacks_fast_all x y); auto; lia.
Qed.

Lemma common_one_off : forall C u v a b, a <> b -> forallb (fun c => c <? C) (u ++ v) = true ->
  common C (u ++ a :: v) (u ++ b :: v) = length (u ++ v).
Proof.
  intros C u v a b Hab H. unfold common. rewrite <- (sum_counts C (u ++ v) H). f_equal.
  apply map_ext. intro c. rewrite !count_occ_app. simpl.
  destruct (Nat.eq_dec a c), (Nat.eq_dec b c); subst; try contradiction; lia.
Qed.

(* The answer (P-1 blacks, 1 white) never occurs: the one colour out of place has nowhere to go. *)
Lemma no_almost_win : forall G x y, is_code G x = true -> is_code G y = true ->
  feedback G x y <> (pegs G - 1, 1).
Proof.
  intros G x y Hx Hy E. pose proof (code_length G x Hx) as Lx. pose proof (code_length G y Hy) as Ly.
  pose proof (common_le G x y Hx) as Hc. unfold feedback in E.
  destruct (black_only G); injection E as Hb Hw; [discriminate|].
  rewrite <- blacks_fast_eq in Hb, Hw by lia.
  destruct (one_off x y) as (u & v & a & b & -> & -> & Hab); [lia|lia|].
  unfold is_code in Hx. apply andb_prop in Hx as [Hx _]. apply andb_prop in Hx as [_ Cx].
  rewrite common_one_off in Hw; auto.
  - rewrite app_length in *. simpl in *. lia.
  - rewrite forallb_app in *. simpl in Cx. apply andb_prop in Cx as [C1 C2].
    apply andb_prop in C2 as [_ C2]. now rewrite C1, C2.
Qed.

Lemma distinct_count : forall x c, distinct x = true -> count_occ Nat.eq_dec x c <= 1.
Proof.
  induction x as [|a x IH]; intros c H; simpl; [lia|]. simpl in H.
  apply andb_prop in H as [H1 H2]. destruct (Nat.eq_dec a c) as [->|]; [|auto].
  rewrite (proj1 (count_occ_not_In Nat.eq_dec x c)); [lia|]. intro Hin.
  apply negb_true_iff in H1. assert (existsb (Nat.eqb c) x = true) as E
    by (apply existsb_exists; exists c; split; auto; apply Nat.eqb_refl). congruence.
Qed.

Lemma sum_min_bound : forall (f g : nat -> nat) l, (forall c, f c <= 1) -> (forall c, g c <= 1) ->
  list_sum (map f l) + list_sum (map g l) <= list_sum (map (fun c => min (f c) (g c)) l) + length l.
Proof.
  induction l as [|c l IH]; intros Hf Hg; simpl; [lia|]. specialize (IH Hf Hg).
  pose proof (Hf c). pose proof (Hg c).
  destruct (f c) as [|[|]], (g c) as [|[|]]; simpl; lia.
Qed.

(* Without repetition two codes share at least 2P - C colours (each colour is in both, in one, or
   in none). *)
Lemma common_norep : forall G x y, is_code G x = true -> is_code G y = true -> repetition G = false ->
  2 * pegs G - colors G <= common (colors G) x y.
Proof.
  intros G x y Hx Hy Hr. unfold is_code in Hx, Hy. rewrite Hr in Hx, Hy. simpl in Hx, Hy.
  apply andb_prop in Hx as [Hx Dx]. apply andb_prop in Hy as [Hy Dy].
  apply andb_prop in Hx as [Lx Cx]. apply andb_prop in Hy as [Ly Cy].
  apply Nat.eqb_eq in Lx, Ly.
  pose proof (sum_min_bound (fun c => count_occ Nat.eq_dec x c) (fun c => count_occ Nat.eq_dec y c)
                (seq 0 (colors G)) (fun c => distinct_count x c Dx) (fun c => distinct_count y c Dy)) as H.
  rewrite (sum_counts _ x Cx), (sum_counts _ y Cy), seq_length in H. unfold common. lia.
Qed.

Lemma answers_complete : forall G g s, is_code G g = true -> is_code G s = true -> g <> s ->
  In (feedback G g s) (answers G).
Proof.
  intros G g s Hg Hs Hne. pose proof (code_length G g Hg) as Lg. pose proof (code_length G s Hs) as Ls.
  assert (Hb : blacks g s < pegs G).
  { pose proof (blacks_le g s). destruct (Nat.eq_dec (blacks g s) (pegs G)); [|lia].
    exfalso. apply Hne, blacks_all; lia. }
  pose proof (no_almost_win G g s Hg Hs) as Hno.
  unfold feedback, answers in *. destruct (black_only G).
  - apply in_map_iff. exists (blacks g s). split; [reflexivity|]. apply in_seq. lia.
  - apply filter_In. split.
    + apply in_flat_map. exists (blacks g s). split; [apply in_seq; lia|].
      apply in_map_iff. exists (common (colors G) g s - blacks g s). split; [reflexivity|].
      apply in_seq. pose proof (common_le G g s Hg). lia.
    + apply andb_true_iff. split; [apply andb_true_iff; split|].
      1,2: apply negb_true_iff; destruct (answer_eqb _ _) eqn:E; auto;
        apply answer_eqb_eq in E; first [injection E; lia | contradiction].
      destruct (repetition G) eqn:Hr; auto. simpl. apply Nat.leb_le.
      pose proof (common_norep G g s Hg Hs Hr). lia.
Qed.

Lemma sum_indicator_answer : forall (x : answer) A, In x A ->
  1 <= list_sum (map (fun a => if answer_eqb x a then 1 else 0) A).
Proof.
  induction A as [|a A IH]; simpl; intro H; [contradiction|].
  destruct H as [->|H].
  - assert (answer_eqb x x = true) as -> by now apply answer_eqb_eq. lia.
  - specialize (IH H). lia.
Qed.

Lemma split_count : forall (X : list code) (A : list answer) (key : code -> answer) (P : code -> bool),
  (forall s, In s X -> P s = false -> In (key s) A) ->
  length X <= length (filter P X)
              + list_sum (map (fun a => length (filter (fun s => negb (P s) && answer_eqb (key s) a) X)) A).
Proof.
  induction X as [|s X IH]; intros A key P H; simpl; [lia|].
  rewrite (map_ext (fun a => length (if negb (P s) && answer_eqb (key s) a
                                      then s :: filter (fun s => negb (P s) && answer_eqb (key s) a) X
                                      else filter (fun s => negb (P s) && answer_eqb (key s) a) X))
             (fun a => (if negb (P s) && answer_eqb (key s) a then 1 else 0)
                       + length (filter (fun s => negb (P s) && answer_eqb (key s) a) X))).
  2: { intro a. destruct (negb (P s) && answer_eqb (key s) a); reflexivity. }
  rewrite list_sum_map_add.
  specialize (IH A key P (fun x Hx => H x (or_intror Hx))).
  destruct (P s) eqn:E; simpl.
  - assert (Z : forall B : list answer, list_sum (map (fun _ : answer => 0) B) = 0)
      by (induction B; simpl; auto).
    rewrite Z. lia.
  - pose proof (sum_indicator_answer (key s) A (H s (or_introl eq_refl) E)). lia.
Qed.

Lemma nodup_all_eq : forall (l : list code) g, NoDup l -> (forall x, In x l -> x = g) -> length l <= 1.
Proof.
  intros [|a [|b l]] g Hn H; simpl; try lia. inversion Hn as [|x y Hnot Hrest]; subst.
  exfalso. apply Hnot. left. rewrite (H a), (H b); simpl; auto.
Qed.

Lemma list_sum_const : forall A (l : list A) c, list_sum (map (fun _ => c) l) = length l * c.
Proof. induction l; simpl; intros; [reflexivity|]. rewrite IHl. lia. Qed.

Lemma counting : forall G k t X, NoDup X -> (forall s, In s X -> is_code G s = true) ->
  (forall s, In s X -> guesses G t s k <> None) -> length X <= most (length (answers G)) k.
Proof.
  intros G k. induction k as [|k IH]; intros [g ch] X Hn Hc Hf.
  - destruct X as [|s X]; simpl; [lia|]. exfalso. apply (Hf s); [now left | reflexivity].
  - destruct (is_code G g) eqn:Hg.
    2: { destruct X as [|s X]; simpl; [lia|]. exfalso. apply (Hf s (or_introl eq_refl)). simpl. now rewrite Hg. }
    assert (Hs := split_count X (answers G) (feedback G g) (code_eqb g)).
    assert (Hwin : length (filter (code_eqb g) X) <= 1).
    { apply nodup_all_eq with g. now apply NoDup_filter. intros x Hx. apply filter_In in Hx as [_ Hx].
      symmetry. now apply code_eqb_eq. }
    assert (Hcl : forall a, In a (answers G) ->
               length (filter (fun s => negb (code_eqb g s) && answer_eqb (feedback G g s) a) X)
               <= most (length (answers G)) k).
    { intros a _. fold (class G g a X). destruct (next a ch) as [t'|] eqn:E.
      - apply IH with t'. apply NoDup_filter; auto.
        + intros s Hs'. apply in_class in Hs' as [Hs' _]. auto.
        + intros s Hs' Hn'. apply in_class in Hs' as [Hs' [Hgs Ha]]. apply (Hf s Hs'). simpl.
          rewrite Hg. simpl. destruct (code_eqb g s) eqn:Eq; [apply code_eqb_eq in Eq; contradiction|].
          rewrite Ha, E, Hn'. reflexivity.
      - destruct (class G g a X) as [|s l] eqn:Ecl; simpl; [lia|]. exfalso.
        assert (In s (class G g a X)) as Hs' by (rewrite Ecl; now left).
        apply in_class in Hs' as [Hs' [Hgs Ha]]. apply (Hf s Hs'). simpl.
        rewrite Hg. simpl. destruct (code_eqb g s) eqn:Eq; [apply code_eqb_eq in Eq; contradiction|].
        rewrite Ha, E. reflexivity. }
    assert (Hsum := list_sum_map_le _ _ _ (answers G) Hcl). rewrite list_sum_const in Hsum.
    simpl. enough (length X <= 1 + length (answers G) * most (length (answers G)) k) by lia.
    etransitivity. apply Hs.
    + intros s Hs' E. apply answers_complete; auto. intro Eq. subst. 
      rewrite (proj2 (code_eqb_eq s s) eq_refl) in E. discriminate.
    + lia.
Qed.

Lemma found_or_not : forall G t k X,
  (exists s, In s X /\ guesses G t s k = None) \/ (forall s, In s X -> guesses G t s k <> None).
Proof.
  intros G t k. induction X as [|s X IH].
  - right. intros s [].
  - destruct (guesses G t s k) eqn:E.
    + destruct IH as [[x [Hx Hn]]|IH]; [left; exists x; split; [now right|auto]|].
      right. intros x [<-|Hx]; [congruence|auto].
    + left. exists s. split; [now left|auto].
Qed.

Lemma hard_by_counting : forall G X k, NoDup X -> (forall s, In s X -> is_code G s = true) ->
  most (length (answers G)) k < length X -> hard G X k.
Proof.
  intros G X k Hn Hc Hl t. destruct (found_or_not G t k X) as [H|H]; auto.
  exfalso. pose proof (counting G k t X Hn Hc H). lia.
Qed.

(* ---------- Permutations of pegs and colours ---------- *)

(* P maps code x to y with y[j] = tau[x[pi[j]]] (pi = peg_map, tau = color_map). *)
Record perm := { peg_map : list nat; color_map : list nat }.
Definition apply (P : perm) (x : code) : code :=
  map (fun i => nth (nth i x 0) (color_map P) 0) (peg_map P).

(* P and Q are inverse permutations of the pegs and colours of the game. *)
Definition inv (G : game) (P Q : perm) : Prop :=
  length (peg_map P) = pegs G /\ length (peg_map Q) = pegs G /\
  (forall j, j < pegs G -> nth j (peg_map P) 0 < pegs G /\ nth j (peg_map Q) 0 < pegs G /\
     nth (nth j (peg_map Q) 0) (peg_map P) 0 = j /\ nth (nth j (peg_map P) 0) (peg_map Q) 0 = j) /\
  (forall c, c < colors G -> nth c (color_map P) 0 < colors G /\ nth c (color_map Q) 0 < colors G /\
     nth (nth c (color_map P) 0) (color_map Q) 0 = c /\ nth (nth c (color_map Q) 0) (color_map P) 0 = c).

Definition inverse_pair (G : game) (P Q : perm) : bool :=
  (length (peg_map P) =? pegs G) && (length (peg_map Q) =? pegs G) &&
  forallb (fun j => (nth j (peg_map P) 0 <? pegs G) && (nth j (peg_map Q) 0 <? pegs G) &&
     (nth (nth j (peg_map Q) 0) (peg_map P) 0 =? j) && (nth (nth j (peg_map P) 0) (peg_map Q) 0 =? j))
    (seq 0 (pegs G)) &&
  forallb (fun c => (nth c (color_map P) 0 <? colors G) && (nth c (color_map Q) 0 <? colors G) &&
     (nth (nth c (color_map P) 0) (color_map Q) 0 =? c) && (nth (nth c (color_map Q) 0) (color_map P) 0 =? c))
    (seq 0 (colors G)).

Lemma inverse_pair_inv : forall G P Q, inverse_pair G P Q = true -> inv G P Q.
Proof.
  intros G P Q H. unfold inverse_pair in H. repeat rewrite andb_true_iff in H.
  destruct H as [[[H1 H2] H3] H4]. rewrite Nat.eqb_eq in H1, H2.
  rewrite forallb_forall in H3, H4. split; [|split; [|split]]; auto.
  - intros x Hx. assert (In x (seq 0 (pegs G))) as Hi by (apply in_seq; lia).
    specialize (H3 x Hi). repeat rewrite andb_true_iff in H3. destruct H3 as [[[A B] C] D].
    rewrite Nat.ltb_lt in A, B. rewrite Nat.eqb_eq in C, D. auto.
  - intros x Hx. assert (In x (seq 0 (colors G))) as Hi by (apply in_seq; lia).
    specialize (H4 x Hi). repeat rewrite andb_true_iff in H4. destruct H4 as [[[A B] C] D].
    rewrite Nat.ltb_lt in A, B. rewrite Nat.eqb_eq in C, D. auto.
Qed.

Lemma inv_sym : forall G P Q, inv G P Q -> inv G Q P.
Proof.
  intros G P Q (H1 & H2 & H3 & H4). split; [|split; [|split]]; auto.
  - intros x Hx. destruct (H3 x Hx) as (? & ? & ? & ?). auto.
  - intros x Hx. destruct (H4 x Hx) as (? & ? & ? & ?). auto.
Qed.

Lemma nth_apply : forall P x j, j < length (peg_map P) ->
  nth j (apply P x) 0 = nth (nth (nth j (peg_map P) 0) x 0) (color_map P) 0.
Proof.
  intros P x j Hj. unfold apply.
  rewrite nth_indep with (d' := (fun i => nth (nth i x 0) (color_map P) 0) 0) by (rewrite map_length; auto).
  exact (map_nth (fun i => nth (nth i x 0) (color_map P) 0) (peg_map P) 0 j).
Qed.

Lemma map_nth_seq : forall (l : list nat), map (fun i => nth i l 0) (seq 0 (length l)) = l.
Proof.
  induction l as [|a l IH]; simpl; auto. f_equal. rewrite <- seq_shift, map_map. exact IH.
Qed.

Lemma NoDup_map_inj : forall (f : nat -> nat) l, NoDup l ->
  (forall a b, In a l -> In b l -> f a = f b -> a = b) -> NoDup (map f l).
Proof.
  induction l as [|a l IH]; simpl; intros Hn Hi; constructor.
  - inversion Hn as [|x y Hnot Hrest]; subst. intro Hin. apply in_map_iff in Hin as [b [Hb Hbl]].
    apply Hnot. rewrite (Hi a b); auto.
  - inversion Hn; subst. apply IH; auto.
Qed.

Lemma perm_seq : forall n f g, (forall i, i < n -> f i < n /\ g i < n /\ f (g i) = i /\ g (f i) = i) ->
  Permutation (map f (seq 0 n)) (seq 0 n).
Proof.
  intros n f g H. apply NoDup_Permutation.
  - apply NoDup_map_inj. apply seq_NoDup. intros a b Ha Hb E. apply in_seq in Ha, Hb.
    destruct (H a) as (_ & _ & _ & Ea); [lia|]. destruct (H b) as (_ & _ & _ & Eb); [lia|].
    rewrite <- Ea, <- Eb, E. reflexivity.
  - apply seq_NoDup.
  - intro x. rewrite in_map_iff, in_seq. split.
    + intros [i [<- Hi]]. apply in_seq in Hi. destruct (H i) as (? & _); lia.
    + intro Hx. exists (g x). destruct (H x) as (_ & ? & ? & _); [lia|]. split; auto. apply in_seq. lia.
Qed.

Lemma filter_perm_length : forall A (f : A -> bool) l l', Permutation l l' ->
  length (filter f l) = length (filter f l').
Proof.
  intros A f l l' H. induction H; simpl; auto.
  - destruct (f x); simpl; auto.
  - destruct (f x), (f y); simpl; auto.
  - congruence.
Qed.

Lemma list_sum_perm : forall l l', Permutation l l' -> list_sum l = list_sum l'.
Proof. intros l l' H. induction H; simpl; lia. Qed.

Lemma distinct_NoDup : forall x, distinct x = true <-> NoDup x.
Proof.
  induction x as [|a x IH]; simpl.
  - split; auto. constructor.
  - rewrite andb_true_iff, negb_true_iff, IH. split.
    + intros [H1 H2]. constructor; auto. intro Hin.
      assert (existsb (Nat.eqb a) x = true) by (apply existsb_exists; exists a; split; auto; apply Nat.eqb_refl).
      congruence.
    + intro H. inversion H as [|y z Hnot Hrest]; subst. split; auto.
      destruct (existsb (Nat.eqb a) x) eqn:E; auto. apply existsb_exists in E as [y [Hy Ey]].
      apply Nat.eqb_eq in Ey. subst. contradiction.
Qed.

Lemma code_facts : forall G x, is_code G x = true <->
  length x = pegs G /\ (forall c, In c x -> c < colors G) /\ (repetition G = false -> NoDup x).
Proof.
  intros G x. unfold is_code. repeat rewrite andb_true_iff. rewrite Nat.eqb_eq, forallb_forall.
  rewrite orb_true_iff, distinct_NoDup. split.
  - intros [[H1 H2] H3]. repeat split; auto.
    + intros c Hc. apply Nat.ltb_lt. auto.
    + intro E. rewrite E in H3. destruct H3; [discriminate|auto].
  - intros (H1 & H2 & H3). repeat split; auto.
    + intros c Hc. apply Nat.ltb_lt. auto.
    + destruct (repetition G); auto.
Qed.

Lemma nth_colour : forall G x i, is_code G x = true -> i < pegs G -> nth i x 0 < colors G.
Proof.
  intros G x i H Hi. apply code_facts in H as (H1 & H2 & _). apply H2, nth_In. lia.
Qed.

Lemma apply_code : forall G P Q x, inv G P Q -> is_code G x = true -> is_code G (apply P x) = true.
Proof.
  intros G P Q x Hinv Hx. destruct Hinv as (L1 & L2 & Hp & Hc).
  pose proof Hx as Hx'. apply code_facts in Hx' as (Lx & Cx & Nx). apply code_facts.
  assert (Hpi : forall i, In i (peg_map P) -> i < pegs G).
  { intros i Hi. apply In_nth with (d := 0) in Hi as [j [Hj <-]]. apply Hp. lia. }
  split; [|split].
  - unfold apply. rewrite map_length. auto.
  - intros c Hin. unfold apply in Hin. apply in_map_iff in Hin as [i [<- Hi]].
    apply Hc. apply nth_colour with (G := G); auto.
  - intro E. unfold apply. apply NoDup_map_inj.
    + apply (NoDup_nth _ 0). intros i j Hi Hj Eq. rewrite L1 in Hi, Hj.
      destruct (Hp i Hi) as (_ & _ & _ & Ei). destruct (Hp j Hj) as (_ & _ & _ & Ej).
      rewrite <- Ei, <- Ej, Eq. reflexivity.
    + intros a b Ha Hb Eq. apply Hpi in Ha, Hb. specialize (Nx E).
      assert (nth a x 0 = nth b x 0).
      { destruct (Hc (nth a x 0)) as (_ & _ & Ea & _); [apply (nth_colour G); auto|].
        destruct (Hc (nth b x 0)) as (_ & _ & Eb & _); [apply (nth_colour G); auto|].
        rewrite <- Ea, <- Eb, Eq. reflexivity. }
      apply (proj1 (NoDup_nth x 0) Nx); auto; lia.
Qed.

Lemma apply_inverse : forall G P Q x, inv G P Q -> is_code G x = true -> apply Q (apply P x) = x.
Proof.
  intros G P Q x Hinv Hx. pose proof Hinv as (L1 & L2 & Hp & Hc).
  pose proof (code_length G x Hx) as Lx.
  apply nth_ext with 0 0.
  - unfold apply. rewrite map_length. lia.
  - intros n Hn. unfold apply in Hn. rewrite map_length, L2 in Hn.
    destruct (Hp n Hn) as (_ & H2 & H3 & _).
    rewrite nth_apply by lia. rewrite nth_apply by lia. rewrite H3.
    destruct (Hc (nth n x 0)) as (_ & _ & E & _); [apply (nth_colour G); auto|]. exact E.
Qed.

Lemma colour_eqb : forall G P Q a b, inv G P Q -> a < colors G -> b < colors G ->
  (nth a (color_map P) 0 =? nth b (color_map P) 0) = (a =? b).
Proof.
  intros G P Q a b (_ & _ & _ & Hc) Ha Hb. destruct (a =? b) eqn:E.
  - apply Nat.eqb_eq in E. subst. apply Nat.eqb_refl.
  - apply Nat.eqb_neq in E. apply Nat.eqb_neq. intro Eq. apply E.
    destruct (Hc a Ha) as (_ & _ & Ea & _). destruct (Hc b Hb) as (_ & _ & Eb & _).
    rewrite <- Ea, <- Eb, Eq. reflexivity.
Qed.

Lemma pegs_perm : forall G P Q, inv G P Q ->
  Permutation (map (fun j => nth j (peg_map P) 0) (seq 0 (pegs G))) (seq 0 (pegs G)).
Proof.
  intros G P Q (_ & _ & Hp & _). apply perm_seq with (g := fun j => nth j (peg_map Q) 0).
  intros i Hi. destruct (Hp i Hi) as (? & ? & ? & ?). auto.
Qed.

Lemma blacks_perm : forall G P Q x y, inv G P Q -> is_code G x = true -> is_code G y = true ->
  blacks (apply P x) (apply P y) = blacks x y.
Proof.
  intros G P Q x y Hinv Hx Hy. pose proof Hinv as (L1 & L2 & Hp & Hc).
  unfold blacks. assert (length (apply P x) = pegs G) as -> by (unfold apply; rewrite map_length; auto).
  rewrite (code_length G x Hx).
  rewrite (filter_ext_in _ (fun j => nth (nth j (peg_map P) 0) x 0 =? nth (nth j (peg_map P) 0) y 0)).
  - rewrite <- (filter_map_length _ _ (fun i => nth i x 0 =? nth i y 0) (fun j => nth j (peg_map P) 0)).
    apply filter_perm_length. apply (pegs_perm G P Q). auto.
  - intros j Hj. apply in_seq in Hj. rewrite !nth_apply by lia.
    destruct (Hp j) as (? & _); [lia|].
    apply (colour_eqb G P Q); auto; apply (nth_colour G); auto.
Qed.

Lemma count_perm : forall G P Q x c, inv G P Q -> is_code G x = true -> c < colors G ->
  count_occ Nat.eq_dec (apply P x) c = count_occ Nat.eq_dec x (nth c (color_map Q) 0).
Proof.
  intros G P Q x c Hinv Hx Hcc. pose proof Hinv as (L1 & L2 & Hp & Hc).
  pose proof (code_length G x Hx) as Lx.
  assert (Permutation (apply P x) (map (fun a => nth a (color_map P) 0) x)) as Hperm.
  { unfold apply.
    rewrite <- (map_nth_seq (peg_map P)) at 1. rewrite map_map, L1.
    transitivity (map (fun i => nth (nth i x 0) (color_map P) 0) (seq 0 (pegs G))).
    - rewrite <- (map_map (fun j => nth j (peg_map P) 0) (fun i => nth (nth i x 0) (color_map P) 0)).
      apply Permutation_map. apply (pegs_perm G P Q). auto.
    - replace (map (fun a => nth a (color_map P) 0) x) with
        (map (fun a => nth a (color_map P) 0) (map (fun i => nth i x 0) (seq 0 (length x))))
        by (rewrite map_nth_seq; reflexivity).
      rewrite map_map, Lx. reflexivity. }
  rewrite (proj1 (Permutation_count_occ Nat.eq_dec _ _) Hperm).
  apply code_facts in Hx as (_ & Cx & _). clear Hperm Lx. induction x as [|a x IH]; simpl; auto.
  assert (a < colors G) as Ha by (apply Cx; now left).
  destruct (Hc a Ha) as (_ & _ & Ea & _). destruct (Hc c Hcc) as (_ & _ & _ & Ec).
  destruct (Nat.eq_dec (nth a (color_map P) 0) c), (Nat.eq_dec a (nth c (color_map Q) 0)).
  - f_equal. apply IH. intros; apply Cx; now right.
  - exfalso. apply n. rewrite <- e, Ea. reflexivity.
  - exfalso. apply n. rewrite e, Ec. reflexivity.
  - apply IH. intros; apply Cx; now right.
Qed.

Lemma common_perm : forall G P Q x y, inv G P Q -> is_code G x = true -> is_code G y = true ->
  common (colors G) (apply P x) (apply P y) = common (colors G) x y.
Proof.
  intros G P Q x y Hinv Hx Hy. pose proof Hinv as (L1 & L2 & Hp & Hc). unfold common.
  transitivity (list_sum (map (fun d => min (count_occ Nat.eq_dec x d) (count_occ Nat.eq_dec y d))
                              (map (fun c => nth c (color_map Q) 0) (seq 0 (colors G))))).
  - rewrite map_map. f_equal. apply map_ext_in. intros c Hcc. apply in_seq in Hcc.
    rewrite !(count_perm G P Q) by (auto; lia). reflexivity.
  - apply list_sum_perm, Permutation_map.
    apply perm_seq with (g := fun c => nth c (color_map P) 0).
    intros i Hi. destruct (Hc i Hi) as (? & ? & ? & ?). auto.
Qed.

(* Feedback is invariant under a permutation of pegs and colours. *)
Theorem feedback_perm : forall G P Q x y, inv G P Q -> is_code G x = true -> is_code G y = true ->
  feedback G (apply P x) (apply P y) = feedback G x y.
Proof.
  intros G P Q x y Hinv Hx Hy. unfold feedback.
  rewrite (blacks_perm G P Q), (common_perm G P Q); auto.
Qed.

(* A tree played through a permutation. *)
Fixpoint map_tree (f : code -> code) (t : tree) : tree :=
  match t with Node g ch => Node (f g) (map (fun '(a, u) => (a, map_tree f u)) ch) end.

Definition relabel (G : game) (Q : perm) (g : code) : code :=
  if is_code G g then apply Q g else g.

Lemma next_map : forall f a ch,
  next a (map (fun '(b, u) => (b, map_tree f u)) ch) = option_map (map_tree f) (next a ch).
Proof.
  induction ch as [|[b u] ch IH]; simpl; auto. destruct (answer_eqb a b); auto.
Qed.

Lemma transfer : forall G P Q k t s, inv G P Q -> is_code G s = true ->
  guesses G (map_tree (relabel G Q) t) s k = guesses G t (apply P s) k.
Proof.
  intros G P Q k. induction k as [|k IH]; intros [g ch] s Hinv Hs; simpl; auto.
  unfold relabel. destruct (is_code G g) eqn:Hg; simpl.
  2: { rewrite Hg. reflexivity. }
  assert (HQ := inv_sym G P Q Hinv).
  rewrite (apply_code G Q P g HQ Hg). simpl.
  assert (code_eqb (apply Q g) s = code_eqb g (apply P s)) as ->.
  { destruct (code_eqb g (apply P s)) eqn:E.
    - apply code_eqb_eq in E. subst. apply code_eqb_eq. apply (apply_inverse G P Q); auto.
    - destruct (code_eqb (apply Q g) s) eqn:E'; auto. apply code_eqb_eq in E'. subst.
      rewrite (apply_inverse G Q P) in E by auto. rewrite (proj2 (code_eqb_eq g g) eq_refl) in E.
      discriminate. }
  destruct (code_eqb g (apply P s)); auto.
  assert (feedback G (apply Q g) s = feedback G g (apply P s)) as ->.
  { rewrite <- (feedback_perm G P Q) by (auto; apply (apply_code G Q P); auto).
    rewrite (apply_inverse G Q P) by auto. reflexivity. }
  rewrite next_map. destruct (next (feedback G g (apply P s)) ch) as [t'|]; simpl; auto.
  rewrite IH; auto.
Qed.

Lemma guesses_less_fuel : forall G t s k k', k <= k' -> guesses G t s k' = None -> guesses G t s k = None.
Proof.
  intros G t s k k' Hk H. destruct (guesses G t s k) eqn:E; auto.
  rewrite (guesses_more_fuel G t s k n E k' Hk) in H. discriminate.
Qed.

(* The permutation rule: if X' is hard within k' and P maps X' into C, C is hard within k <= k'. *)
Lemma hard_image : forall G P Q X' k' C k, inv G P Q -> (forall s, In s X' -> is_code G s = true) ->
  hard G X' k' -> k <= k' -> (forall s, In s X' -> In (apply P s) C) -> hard G C k.
Proof.
  intros G P Q X' k' C k Hinv Hc Hh Hk Hin t.
  destruct (Hh (map_tree (relabel G Q) t)) as [s [Hs Hn]].
  exists (apply P s). split; auto.
  rewrite (transfer G P Q) in Hn by auto. apply guesses_less_fuel with k'; auto.
Qed.

(* ---------- Fast building blocks, proven equal to the definitions ---------- *)

(* The colour counts of a code, computed once per code; common is then a sum of minima. *)
Definition counts (C : nat) (x : code) : list nat := map (fun c => count_occ Nat.eq_dec x c) (seq 0 C).

Fixpoint sum_min (u v : list nat) : nat :=
  match u, v with a :: u', b :: v' => min a b + sum_min u' v' | _, _ => 0 end.

Lemma sum_min_eq : forall C x y, sum_min (counts C x) (counts C y) = common C x y.
Proof. intros C x y. unfold counts, common. induction (seq 0 C); simpl; auto. Qed.

(* The feedback from the codes and their colour counts. *)
Definition fb (G : game) (x : code) (cx : list nat) (y : code) (cy : list nat) : answer :=
  let b := blacks_fast x y in if black_only G then (b, 0) else (b, sum_min cx cy - b).

Lemma fb_eq : forall G x y, length x = length y ->
  fb G x (counts (colors G) x) y (counts (colors G) y) = feedback G x y.
Proof. intros G x y H. unfold fb, feedback. rewrite sum_min_eq, blacks_fast_eq; auto. Qed.

(* Codes in lexicographic order (the order of `codes G`): a strictly sorted list has no repeat,
   and inclusion of sorted lists is a merge. *)
Fixpoint code_ltb (x y : code) : bool :=
  match x, y with
  | a :: x', b :: y' => (a <? b) || ((a =? b) && code_ltb x' y')
  | [], _ :: _ => true
  | _, _ => false
  end.

Lemma code_ltb_irrefl : forall x, code_ltb x x = false.
Proof. induction x; simpl; auto. rewrite Nat.ltb_irrefl, Nat.eqb_refl, IHx. reflexivity. Qed.

Lemma code_ltb_trans : forall x y z, code_ltb x y = true -> code_ltb y z = true -> code_ltb x z = true.
Proof.
  induction x as [|a x IH]; destruct y as [|b y]; destruct z as [|c z]; simpl; intros H1 H2;
    try discriminate; auto.
  rewrite orb_true_iff, andb_true_iff, Nat.ltb_lt, Nat.eqb_eq in *.
  destruct H1 as [H1|[-> H1]]; destruct H2 as [H2|[-> H2]]; [left; lia | left; lia | left; lia |].
  right. split; eauto.
Qed.

Fixpoint sorted_codes (l : list code) : bool :=
  match l with
  | x :: ((y :: _) as r) => code_ltb x y && sorted_codes r
  | _ => true
  end.

Lemma sorted_codes_lt : forall l x, sorted_codes (x :: l) = true -> forall y, In y l -> code_ltb x y = true.
Proof.
  induction l as [|y0 l IH]; intros x H y Hy; [contradiction|].
  change (code_ltb x y0 && sorted_codes (y0 :: l) = true) in H. apply andb_prop in H as [H1 H2].
  destruct Hy as [<-|Hy]; auto. apply code_ltb_trans with y0; auto.
Qed.

Lemma sorted_codes_NoDup : forall l, sorted_codes l = true -> NoDup l.
Proof.
  induction l as [|x l IH]; intro H; constructor.
  - intro Hin. pose proof (sorted_codes_lt l x H x Hin) as E. rewrite code_ltb_irrefl in E. discriminate.
  - apply IH. destruct l as [|y l]; [reflexivity|]. change (code_ltb x y && sorted_codes (y :: l) = true) in H.
    now apply andb_prop in H as [_ H].
Qed.

(* xs is inside ys, both sorted: one walk along ys (sortedness is only needed to accept). *)
Fixpoint sub_sorted (ys xs : list code) : bool :=
  match xs with
  | [] => true
  | x :: xs' =>
      match ys with
      | [] => false
      | y :: ys' => if code_eqb x y then sub_sorted ys' xs' else code_ltb y x && sub_sorted ys' xs
      end
  end.

Lemma sub_sorted_In : forall ys xs, sub_sorted ys xs = true -> forall x, In x xs -> In x ys.
Proof.
  induction ys as [|y ys IH]; intros [|x xs] H z Hz; simpl in *; try contradiction; try discriminate.
  destruct (code_eqb x y) eqn:E.
  - apply code_eqb_eq in E. subst. destruct Hz as [<-|Hz]; [now left | right; apply (IH xs H z Hz)].
  - apply andb_prop in H as [_ H]. right. apply (IH (x :: xs) H z Hz).
Qed.

(* The standard library's merge sort (Coq.Sorting.Mergesort, proven a permutation). *)
Module CodeOrder <: Orders.TotalLeBool'.
  Definition t := code.
  Definition leb (x y : code) : bool := negb (code_ltb y x).
  Lemma leb_total : forall x y, leb x y = true \/ leb y x = true.
  Proof.
    intros x y. unfold leb. destruct (code_ltb y x) eqn:E1; destruct (code_ltb x y) eqn:E2; auto.
    pose proof (code_ltb_trans _ _ _ E1 E2) as E. rewrite code_ltb_irrefl in E. discriminate.
  Qed.
End CodeOrder.
Module CodeSort := Mergesort.Sort CodeOrder.

(* ---------- The lower-bound checker ---------- *)

(* A witness for guess g at a node: the answer a, and node i whose set P maps into g's class a. *)
Definition witness := (code * answer * nat * perm * perm)%type.
(* A node claims its set is hard within `left` guesses; its set is in code order, its witnesses
   in the code order of their guesses. *)
Record node := { set : list code; left : nat; witnesses : list witness }.
Definition no_node := {| set := []; left := 0; witnesses := [] |}.

(* Each code with its colour counts. *)
Definition prepare (G : game) (X : list code) : list (code * list nat) :=
  map (fun x => (x, counts (colors G) x)) X.

(* An answer as one number (white <= P), so that counting compares integers. *)
Definition key (G : game) (a : answer) : nat := fst a * S (pegs G) + snd a.

Lemma key_inj : forall G a b, snd a <= pegs G -> snd b <= pegs G -> key G a = key G b -> a = b.
Proof.
  intros G [a1 a2] [b1 b2] Ha Hb E. unfold key in E. simpl in *.
  destruct (lt_eq_lt_dec a1 b1) as [[H|H]|H]; [exfalso; nia | subst; f_equal; lia | exfalso; nia].
Qed.

Lemma answers_facts : forall G a, In a (answers G) -> snd a <= pegs G /\ a <> (pegs G, 0).
Proof.
  intros G [b w] H. unfold answers in H. destruct (black_only G).
  - apply in_map_iff in H as [b' [E Hb]]. injection E as <- <-. apply in_seq in Hb. simpl.
    split; [lia|]. intro E. injection E. lia.
  - apply filter_In in H as [H1 H2]. apply andb_prop in H2 as [H2 _]. apply andb_prop in H2 as [H2 _].
    apply negb_true_iff in H2.
    apply in_flat_map in H1 as [b' [Hb H1]]. apply in_map_iff in H1 as [w' [E Hw]].
    injection E as <- <-. apply in_seq in Hb, Hw. simpl. split; [lia|]. intro E. rewrite E in H2.
    rewrite (proj2 (answer_eqb_eq _ _) eq_refl) in H2. discriminate.
Qed.

Lemma feedback_white : forall G g s, is_code G g = true -> snd (feedback G g s) <= pegs G.
Proof.
  intros G g s H. unfold feedback. destruct (black_only G); simpl; [lia|].
  pose proof (common_le G g s H). lia.
Qed.

Fixpoint count_key (n : nat) (l : list nat) : nat :=
  match l with [] => 0 | x :: r => (if x =? n then 1 else 0) + count_key n r end.

Lemma count_key_filter : forall n l, count_key n l = length (filter (fun x => x =? n) l).
Proof. induction l as [|x l IH]; simpl; auto. destruct (x =? n); simpl; auto. Qed.

(* Some class of g at X holds more secrets than k guesses can find (A: the answers, PX: X
   prepared): the answers of g to X as numbers (the win as the key of (P, 0)), then counted. *)
Definition counted (G : game) (A : list answer) (PX : list (code * list nat)) (k : nat) (g : code)
    (cg : list nat) : bool :=
  let win := key G (pegs G, 0) in
  let L := map (fun p => if code_eqb g (fst p) then win else key G (fb G g cg (fst p) (snd p))) PX in
  let b := length A in
  existsb (fun a => let n := count_key (key G a) L in most_sat b k n <? n) A.

(* The witness's node i, mapped by P, lies inside the class of its answer at X. The answers are
   checked on node i's own codes against Q g (feedback is invariant: feedback g (P s) =
   feedback (Q g) s), with their colour counts computed once (PN: every node's set, prepared);
   membership in X is a merge of the sorted images with X, unless X is every code (whole). *)
Definition referenced (G : game) (nodes : list node) (PN : list (list (code * list nat))) (j : nat)
    (X : list code) (whole : bool) (k : nat) (g : code) (w : witness) : bool :=
  let '(h, a, i, P, Q) := w in
  let n := nth i nodes no_node in
  code_eqb g h && (j <? i) && (i <? length nodes) && inverse_pair G P Q && (k <=? left n) &&
  (let g' := apply Q g in
   let cg' := counts (colors G) g' in
   forallb (fun p => negb (code_eqb g' (fst p)) && answer_eqb (fb G g' cg' (fst p) (snd p)) a)
           (nth i PN [])
   && (whole || sub_sorted X (CodeSort.sort (map (apply P) (set n))))).

Definition guess_of (w : witness) : code := let '(h, _, _, _, _) := w in h.

(* Every guess (all codes, enumerated by the checker, with their counts) refuted: by its witness,
   or by counting. *)
Fixpoint refute G A nodes PN j X PX whole k (gs : list (code * list nat)) (ws : list witness) : bool :=
  match gs with
  | [] => true
  | (g, cg) :: gs' =>
      match ws with
      | w :: ws' =>
          if code_eqb g (guess_of w)
          then (referenced G nodes PN j X whole k g w || counted G A PX k g cg)
               && refute G A nodes PN j X PX whole k gs' ws'
          else counted G A PX k g cg && refute G A nodes PN j X PX whole k gs' ws
      | [] => counted G A PX k g cg && refute G A nodes PN j X PX whole k gs' []
      end
  end.

(* A: the answers of the game; cs: its codes, prepared; PN: the nodes' sets, prepared (all
   computed once, by check_bound). *)
Definition node_ok (G : game) A cs nodes PN (j : nat) (n : node) : bool :=
  forallb (is_code G) (set n) && sorted_codes (set n) && (0 <? length (set n)) &&
  match left n with
  | 0 => true
  | S k => (most_sat (length A) (S k) (length (set n)) <? length (set n))
           || refute G A nodes PN j (set n) (nth j PN []) (length (set n) =? length cs) k cs
                     (witnesses n)
  end.

Fixpoint all_ok G A cs nodes PN j (ns : list node) : bool :=
  match ns with
  | [] => true
  | n :: r => node_ok G A cs nodes PN j n && all_ok G A cs nodes PN (S j) r
  end.

Fixpoint codes_eqb (x y : list code) : bool :=
  match x, y with
  | [], [] => true
  | a :: x', b :: y' => code_eqb a b && codes_eqb x' y'
  | _, _ => false
  end.

Lemma codes_eqb_eq : forall x y, codes_eqb x y = true -> x = y.
Proof.
  induction x; destruct y; simpl; intro H; try easy.
  apply andb_prop in H as [H1 H2]. apply code_eqb_eq in H1. apply IHx in H2. now subst.
Qed.

(* The root (node 0) is every code of the game, hard within D - 1 guesses. *)
Definition check_bound (G : game) (D : nat) (nodes : list node) : bool :=
  match nodes with
  | [] => false
  | root :: _ =>
      let cs := codes G in
      (1 <=? D) && codes_eqb (set root) cs && (left root =? D - 1)
      && all_ok G (answers G) (prepare G cs) nodes (map (fun n => prepare G (set n)) nodes) 0 nodes
  end.

(* ---------- Soundness of the lower-bound checker ---------- *)

Lemma counted_sound : forall G X k g, NoDup X -> (forall s, In s X -> is_code G s = true) ->
  is_code G g = true ->
  counted G (answers G) (prepare G X) k g (counts (colors G) g) = true ->
  exists a, hard G (class G g a X) k.
Proof.
  intros G X k g Hn Hc Hg H. unfold counted, prepare in H.
  apply existsb_exists in H as [a [HA Ha]]. destruct (answers_facts G a HA) as [Hwa Hwin].
  exists a. apply Nat.ltb_lt in Ha. rewrite most_sat_min in Ha.
  rewrite count_key_filter, !filter_map_length in Ha. simpl in Ha.
  rewrite (filter_ext_in _ (fun s => negb (code_eqb g s) && answer_eqb (feedback G g s) a)) in Ha.
  2: { intros s Hs. destruct (code_eqb g s) eqn:E; simpl.
       - apply Nat.eqb_neq. intro Ek. apply Hwin. symmetry. apply (key_inj G); simpl; auto; lia.
       - rewrite fb_eq by (rewrite (code_length G g Hg), (code_length G s (Hc s Hs)); reflexivity).
         destruct (answer_eqb (feedback G g s) a) eqn:Ea.
         + apply answer_eqb_eq in Ea. rewrite Ea. apply Nat.eqb_refl.
         + apply Nat.eqb_neq. intro Ek. apply key_inj in Ek; auto using feedback_white.
           rewrite Ek, (proj2 (answer_eqb_eq a a) eq_refl) in Ea. discriminate. }
  fold (class G g a X) in Ha.
  apply hard_by_counting; auto.
  - apply NoDup_filter. auto.
  - intros s Hs. apply in_class in Hs as [Hs _]. auto.
  - lia.
Qed.

Lemma refute_sound : forall G A nodes PN j X PX whole k gs ws,
  refute G A nodes PN j X PX whole k gs ws = true -> forall g cg, In (g, cg) gs ->
  counted G A PX k g cg = true \/ exists w, referenced G nodes PN j X whole k g w = true.
Proof.
  intros G A nodes PN j X PX whole k. induction gs as [|[g cg] gs IH]; intros ws H x cx Hx;
    [contradiction|].
  simpl in H. destruct ws as [|w ws].
  - apply andb_prop in H as [H1 H2]. destruct Hx as [E|Hx]; [injection E as <- <-; auto|].
    apply (IH [] H2 x cx Hx).
  - destruct (code_eqb g (guess_of w)).
    + apply andb_prop in H as [H1 H2]. destruct Hx as [E|Hx].
      * injection E as <- <-. apply orb_prop in H1 as [H1|H1]; auto. right. now exists w.
      * apply (IH ws H2 x cx Hx).
    + apply andb_prop in H as [H1 H2]. destruct Hx as [E|Hx]; [injection E as <- <-; auto|].
      apply (IH _ H2 x cx Hx).
Qed.

Lemma all_ok_nth : forall G A cs nodes PN ns j, all_ok G A cs nodes PN j ns = true ->
  forall i, i < length ns -> node_ok G A cs nodes PN (j + i) (nth i ns no_node) = true.
Proof.
  induction ns as [|n ns IH]; simpl; intros j H i Hi; [lia|]. apply andb_prop in H as [H1 H2].
  destruct i as [|i]. rewrite Nat.add_0_r. auto.
  replace (j + S i) with (S j + i) by lia. apply IH; auto. lia.
Qed.

Lemma node_facts : forall G A cs nodes PN j n, node_ok G A cs nodes PN j n = true ->
  (forall s, In s (set n) -> is_code G s = true) /\ NoDup (set n) /\ set n <> [].
Proof.
  intros G A cs nodes PN j n H. unfold node_ok in H. repeat rewrite andb_true_iff in H.
  destruct H as [[[H1 H2] H3] _]. rewrite forallb_forall in H1. repeat split; auto.
  - now apply sorted_codes_NoDup.
  - intro E. rewrite E in H3. discriminate.
Qed.

Lemma prepared_nth : forall G nodes i,
  nth i (map (fun n => prepare G (set n)) nodes) [] = prepare G (set (nth i nodes no_node)).
Proof.
  intros G nodes i. exact (map_nth (fun n => prepare G (set n)) nodes no_node i).
Qed.

(* A set of codes without repeats, as long as the list of all codes, holds every code. *)
Lemma whole_set : forall G X, NoDup X -> (forall s, In s X -> is_code G s = true) ->
  length X = length (prepare G (codes G)) -> forall s, is_code G s = true -> In s X.
Proof.
  intros G X Hn Hc Hl s Hs. unfold prepare in Hl. rewrite map_length in Hl.
  apply (NoDup_length_incl (l' := codes G) Hn); [lia| |now apply in_codes].
  intros x Hx. apply in_codes. auto.
Qed.

Lemma nodes_sound : forall G nodes,
  all_ok G (answers G) (prepare G (codes G)) nodes (map (fun n => prepare G (set n)) nodes) 0 nodes = true ->
  forall j, j < length nodes -> hard G (set (nth j nodes no_node)) (left (nth j nodes no_node)).
Proof.
  intros G nodes Hall. set (PN := map (fun n => prepare G (set n)) nodes) in *.
  assert (Hok : forall j, j < length nodes ->
            node_ok G (answers G) (prepare G (codes G)) nodes PN j (nth j nodes no_node) = true)
    by (intros j Hj; apply (all_ok_nth _ _ _ nodes PN nodes 0 Hall j Hj)).
  intros j. remember (length nodes - j) as m eqn:Em. revert j Em.
  induction m as [m IH] using lt_wf_ind. intros j Em Hj.
  pose proof (Hok j Hj) as H. destruct (node_facts _ _ _ nodes PN j _ H) as (Hc & Hn & Hne).
  unfold node_ok in H. apply andb_prop in H as [_ H].
  destruct (left (nth j nodes no_node)) as [|k] eqn:Hk.
  - intro t. destruct (set (nth j nodes no_node)) as [|s X]; [contradiction|].
    exists s. split; [now left | reflexivity].
  - apply orb_prop in H as [H|H].
    + apply hard_by_counting; auto. apply Nat.ltb_lt in H. rewrite most_sat_min in H. lia.
    + apply hard_by_guesses; auto. intros g Hg.
      assert (Hin : In (g, counts (colors G) g) (prepare G (codes G))).
      { unfold prepare. apply (in_map (fun x => (x, counts (colors G) x))). now apply in_codes. }
      destruct (refute_sound _ _ _ _ _ _ _ _ _ _ _ H g _ Hin) as [Hcnt|[w Hw]].
      * apply counted_sound; auto. unfold PN in Hcnt. now rewrite prepared_nth in Hcnt.
      * destruct w as [[[[h a] i] P] Q]. exists a. unfold referenced in Hw. cbv zeta in Hw.
        repeat rewrite andb_true_iff in Hw.
        destruct Hw as [[[[[_ Hji] Hi] HPQ] Hki] [Hfb Hsub]].
        apply Nat.ltb_lt in Hji, Hi. apply Nat.leb_le in Hki. apply inverse_pair_inv in HPQ.
        rewrite forallb_forall in Hfb. unfold PN in Hfb. rewrite prepared_nth in Hfb.
        destruct (node_facts _ _ _ nodes PN i _ (Hok i Hi)) as (Hci & _ & _).
        assert (HQP := inv_sym G P Q HPQ).
        assert (Hg' : is_code G (apply Q g) = true) by (apply (apply_code G Q P); auto).
        apply (hard_image G P Q (set (nth i nodes no_node)) (left (nth i nodes no_node))); auto.
        -- apply (IH (length nodes - i)); auto. lia.
        -- intros s Hs. assert (Hsc := Hci s Hs).
           assert (HX : In (apply P s) (set (nth j nodes no_node))).
           { apply orb_prop in Hsub as [Hw|Hsub].
             - apply Nat.eqb_eq in Hw. apply (whole_set G); auto. apply (apply_code G P Q); auto.
             - apply (sub_sorted_In _ _ Hsub). apply (Permutation_in _ (CodeSort.Permuted_sort _)).
               now apply in_map. }
           assert (Hp : In (s, counts (colors G) s) (prepare G (set (nth i nodes no_node))))
             by (unfold prepare; now apply (in_map (fun x => (x, counts (colors G) x)))).
           specialize (Hfb _ Hp). simpl in Hfb. apply andb_prop in Hfb as [Hne' Ha].
           apply negb_true_iff in Hne'. apply answer_eqb_eq in Ha.
           rewrite fb_eq in Ha.
           2: { rewrite (code_length G _ Hg'), (code_length G s Hsc). reflexivity. }
           rewrite <- (feedback_perm G P Q) in Ha by auto.
           rewrite (apply_inverse G Q P g HQP Hg) in Ha.
           unfold class. apply filter_In. split; auto. rewrite Ha, (proj2 (answer_eqb_eq a a) eq_refl).
           destruct (code_eqb g (apply P s)) eqn:E; auto.
           apply code_eqb_eq in E. rewrite E, (apply_inverse G P Q s HPQ Hsc) in Hne'.
           now rewrite (proj2 (code_eqb_eq s s) eq_refl) in Hne'.
Qed.

Theorem bound_checker_sound : forall G D nodes,
  check_bound G D nodes = true -> every_strategy_needs G D.
Proof.
  intros G D nodes H t. destruct nodes as [|root rest]; [discriminate|].
  unfold check_bound in H. repeat rewrite andb_true_iff in H. destruct H as [[[_ H1] H2] H3].
  apply codes_eqb_eq in H1. apply Nat.eqb_eq in H2.
  destruct (nodes_sound G (root :: rest) H3 0 ltac:(simpl; lia) t) as [s [Hs Hn]].
  simpl in Hs, Hn. rewrite H1 in Hs. rewrite H2 in Hn.
  exists s. split; auto. now apply in_codes.
Qed.
