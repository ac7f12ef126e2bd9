(* The file reader of the verified checker (trusted, outside the proof: keep it tiny).
   It reads whitespace-separated integers (formal/README.md gives the format), builds the
   values the extracted checker takes, and prints the checker's verdict.
   Exit 0: accepted; 1: refused; 2: unreadable file or usage error. *)
open Checker

exception Bad of string

let tokens = ref [||]
let pos = ref 0
let int () =
  if !pos >= Array.length !tokens then raise (Bad "unexpected end of file");
  let t = !tokens.(!pos) in
  incr pos;
  match int_of_string_opt t with
  | Some n when n >= 0 && n < 1 lsl 30 -> n  (* every product the checker forms stays below 2^62 *)
  | _ -> raise (Bad (Printf.sprintf "token %d is not a small non-negative integer" !pos))
let ints n = List.init n (fun _ -> int ())
let word () =
  if !pos >= Array.length !tokens then raise (Bad "unexpected end of file");
  incr pos; !tokens.(!pos - 1)

let read_tokens path =
  let ic = open_in_bin path in
  let n = in_channel_length ic in
  let s = really_input_string ic n in
  close_in ic;
  tokens := Array.of_list (List.filter (fun t -> t <> "")
                             (String.split_on_char ' ' (String.map (function
                                | '\n' | '\t' | '\r' -> ' ' | c -> c) s)))

let read_game () =
  let p = int () in let c = int () in let r = int () in let b = int () in
  { pegs = p; colors = c; repetition = r = 1; black_only = b = 1 }

(* the game as the checker was given it, for the verdict's line *)
let name g =
  Printf.sprintf "%dx%d%s%s" g.pegs g.colors (if g.repetition then "" else " without repetition")
    (if g.black_only then " (black-peg answers)" else "")

(* tree: the guess (P colours), the number of children, then each child: black white tree *)
let rec read_tree p =
  let g = ints p in
  let n = int () in
  Node (g, List.init n (fun _ -> let b = int () in let w = int () in ((b, w), read_tree p)))

let strategy () =
  if word () <> "mastermind-strategy" then raise (Bad "not a strategy file");
  let g = read_game () in
  let d = int () in
  let hist = ints d in
  let secrets = int () in
  let total = int () in
  let t = read_tree g.pegs in
  if !pos <> Array.length !tokens then raise (Bad "data after the tree");
  (check_strategy g t d hist secrets total,
   Printf.sprintf "the %d secrets of %s are found within %d guesses (the maximum), %d in total, \
histogram %s" secrets (name g) d total (String.concat " " (List.map string_of_int hist)))

(* node: left, the number m of codes and the codes, the number of witnesses and each: the guess,
   black white, the node index, then P and its inverse Q, each as P peg indices and C colours *)
let bound () =
  if word () <> "mastermind-bound" then raise (Bad "not a bound file");
  let g = read_game () in
  let d = int () in
  let perm () = let pm = ints g.pegs in let cm = ints g.colors in { peg_map = pm; color_map = cm } in
  let node () =
    let left = int () in
    let m = int () in
    let set = List.init m (fun _ -> ints g.pegs) in
    let w = int () in
    let witness () =
      let h = ints g.pegs in let b = int () in let wh = int () in let i = int () in
      let p = perm () in let q = perm () in ((((h, (b, wh)), i), p), q) in
    { set; left; witnesses = List.init w (fun _ -> witness ()) } in
  let n = int () in
  let nodes = List.init n (fun _ -> node ()) in
  if !pos <> Array.length !tokens then raise (Bad "data after the last node");
  (check_bound g d nodes,
   Printf.sprintf "every strategy for %s needs at least %d guesses for some secret (%d nodes)"
     (name g) d n)

let () =
  (* a larger minor heap (8 MB): the checker allocates many short-lived lists *)
  Gc.set { (Gc.get ()) with Gc.minor_heap_size = 1 lsl 20 };
  match Sys.argv with
  | [| _; path |] ->
    (try
       read_tokens path;
       let kind = if Array.length !tokens > 0 then !tokens.(0) else "" in
       let ok, claim = match kind with
         | "mastermind-strategy" -> strategy ()
         | "mastermind-bound" -> bound ()
         | _ -> raise (Bad "unknown file kind") in
       if ok then (print_endline ("accepted (verified checker): " ^ claim); exit 0)
       else (print_endline ("refused (verified checker): not " ^ claim); exit 1)
     with
     | Bad m -> prerr_endline ("error: " ^ path ^ ": " ^ m); exit 2
     | Sys_error m -> prerr_endline ("error: " ^ m); exit 2
     | Stack_overflow -> prerr_endline ("error: " ^ path ^ ": nested too deep"); exit 2)
  | _ -> prerr_endline "usage: mmcheck FILE"; exit 2
