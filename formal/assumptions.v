Require Import MM.Checkers.
Print Assumptions strategy_checker_sound.
