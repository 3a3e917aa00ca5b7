;; Where in a text some of many short literals could start, in WebAssembly with 128-bit
;; SIMD. `literal-scan.ts` plans the tables, copies the text in and checks each candidate;
;; `npm run build:wasm` assembles this file into `literal-scan-wasm.ts`.
;;
;; `find` is a multi-literal filter in the manner of Hyperscan's "Teddy": each literal is
;; given a fingerprint of up to three byte sets (usually three of its characters) and one
;; of 8 buckets. For each of the three positions of a fingerprint, two 16-byte tables say
;; which buckets accept a byte by its low and by its high four bits; a byte is looked up
;; in both with one shuffle each, and a text position is a candidate for a bucket when the
;; bytes at it and after it are accepted at all three positions. Sixteen positions are
;; tried at once. A set nibble in both tables accepts every byte made of such nibbles, so
;; a candidate may be no match (the caller checks it); a match is never missed. (A second
;; group of 8 buckets in the same pass cost more than twice the time: measured.)
;;
;; Memory: 16 bytes of scratch at 0, then where the caller puts them, each plan's tables
;; (position j: low at 32j, high 16 bytes after) followed 128 bytes on by a bitmap of its
;; fingerprints' exact byte triples (8192 bytes; bit (triple × 0x9E3779B1) >> 16, the
;; triple read little-endian) and then one of the exact four bytes of its four-set
;; fingerprints (the same hash of the four bytes), the text and the output.
(module
  (memory (export "memory") 1)

  ;; Looks at the 16-byte blocks from `start` (text bytes, then at least 32 zero bytes) up
  ;; to `end` with the plan whose tables are at `tables`, and writes two i32 for each
  ;; candidate position before `end`, in order, from `out`: the position (its offset from
  ;; `start` plus `base`) and the four bytes from it (little-endian), by which the caller
  ;; finds the fingerprints that hold there. Returns the number of candidates.
  ;; `masks` is room for four bytes per block. Each block is loaded and split into nibbles
  ;; once: the buckets accepting its bytes at the three positions of a fingerprint are
  ;; looked up together, and a fingerprint ending at byte i is where position 2 accepts byte
  ;; i, position 1 byte i - 1 and position 0 byte i - 2 (the last two carried over from the
  ;; block before). So the loop runs one block past `end`, and reports starts before `end`.
  (func (export "find") (param $start i32) (param $end i32) (param $out i32) (param $tables i32) (param $masks i32)
    (param $base i32) (result i32)
    (local $p i32) (local $o i32) (local $q i32) (local $h i32) (local $m i32) (local $w i32)
    (local $e i32) (local $seen i32) (local $bits i32)
    (local $triples i32) (local $quads i32) (local $stop i32)
    (local $nib v128) (local $x v128) (local $lo v128) (local $hi v128)
    (local $b0 v128) (local $b1 v128) (local $b2 v128) (local $prev0 v128) (local $prev1 v128) (local $a v128)
    (local $a0l v128) (local $a0h v128) (local $a1l v128) (local $a1h v128) (local $a2l v128) (local $a2h v128)
    (local.set $nib (i8x16.splat (i32.const 15)))
    (local.set $a0l (v128.load (local.get $tables)))
    (local.set $a0h (v128.load offset=16 (local.get $tables)))
    (local.set $a1l (v128.load offset=32 (local.get $tables)))
    (local.set $a1h (v128.load offset=48 (local.get $tables)))
    (local.set $a2l (v128.load offset=64 (local.get $tables)))
    (local.set $a2h (v128.load offset=80 (local.get $tables)))
    (local.set $triples (i32.add (local.get $tables) (i32.const 128)))
    (local.set $quads (i32.add (local.get $tables) (i32.const 8320)))
    (local.set $p (local.get $start))
    (local.set $o (local.get $out))
    (local.set $m (local.get $masks))
    (local.set $stop (i32.add (local.get $end) (i32.const 16)))
    (block $done
      (loop $next
        (br_if $done (i32.ge_u (local.get $p) (local.get $stop)))
        (local.set $x (v128.load (local.get $p)))
        (local.set $lo (v128.and (local.get $x) (local.get $nib)))
        (local.set $hi (v128.and (i16x8.shr_u (local.get $x) (i32.const 4)) (local.get $nib)))
        (local.set $b0 (v128.and
          (i8x16.swizzle (local.get $a0l) (local.get $lo))
          (i8x16.swizzle (local.get $a0h) (local.get $hi))))
        (local.set $b1 (v128.and
          (i8x16.swizzle (local.get $a1l) (local.get $lo))
          (i8x16.swizzle (local.get $a1h) (local.get $hi))))
        (local.set $b2 (v128.and
          (i8x16.swizzle (local.get $a2l) (local.get $lo))
          (i8x16.swizzle (local.get $a2h) (local.get $hi))))
        ;; Lane i: a fingerprint may end at byte p + i (and start at p + i - 2).
        (local.set $a (v128.and (local.get $b2) (v128.and
          (i8x16.shuffle 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 (local.get $prev1) (local.get $b1))
          (i8x16.shuffle 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 (local.get $prev0) (local.get $b0)))))
        (local.set $prev0 (local.get $b0))
        (local.set $prev1 (local.get $b1))
        ;; The block's 16 lanes as bits over its offset, for the second loop, which sees only
        ;; the blocks with a lane set: each is written, and kept only if so (no branch here).
        (local.set $w (i8x16.bitmask (i8x16.ne (local.get $a) (v128.const i32x4 0 0 0 0))))
        (i32.store (local.get $m) (i32.or (i32.shl (local.get $w) (i32.const 16)) (i32.sub (local.get $p) (local.get $start))))
        (local.set $m (i32.add (local.get $m) (i32.shl (i32.ne (local.get $w) (i32.const 0)) (i32.const 2))))
        (local.set $p (i32.add (local.get $p) (i32.const 16)))
        (br $next)))
    ;; Each lane set, block by block: its three bytes are hashed to one of 65,536 bits, and
    ;; it is kept only if some fingerprint holds those bytes exactly (the nibble tables
    ;; accept more), which drops most false alarms before they cost the caller anything; and
    ;; only if it starts before `end`. Each candidate is written, and counted only if kept,
    ;; so that no test is a branch the processor must guess (most of the time of a pass went
    ;; to wrong guesses).
    (local.set $w (local.get $masks))
    (block $all
      (loop $block
        (br_if $all (i32.ge_u (local.get $w) (local.get $m)))
        (local.set $bits (i32.shr_u (i32.load (local.get $w)) (i32.const 16)))
        ;; (Lane i of the block at p is where a fingerprint ends at p + i: it starts two before.)
        (local.set $p (i32.sub (i32.add (local.get $start) (i32.load16_u (local.get $w))) (i32.const 2)))
        (block $none
          (loop $lane
            (br_if $none (i32.eqz (local.get $bits)))
            (local.set $q (i32.add (local.get $p) (i32.ctz (local.get $bits))))
            ;; The four bytes from there (little-endian), what the caller is given to find the
            ;; fingerprint; and the triples' and the quads' bits of them.
            (local.set $seen (i32.load (local.get $q)))
            (local.set $e (i32.shr_u (i32.mul (local.get $seen) (i32.const 0x9E3779B1)) (i32.const 16)))
            (local.set $h (i32.shr_u (i32.mul (i32.and (local.get $seen) (i32.const 0xFFFFFF)) (i32.const 0x9E3779B1))
              (i32.const 16)))
            ;; Kept if the three bytes are a three-set fingerprint's or the four a four-set one's.
            (local.set $e (i32.and
              (i32.shr_u (i32.load8_u (i32.add (local.get $quads) (i32.shr_u (local.get $e) (i32.const 3))))
                (i32.and (local.get $e) (i32.const 7)))
              (i32.const 1)))
            (i32.store (local.get $o) (i32.add (i32.sub (local.get $q) (local.get $start)) (local.get $base)))
            (i32.store offset=4 (local.get $o) (local.get $seen))
            (local.set $o (i32.add (local.get $o)
              (i32.shl
                (i32.and
                  (i32.or (local.get $e)
                    (i32.and
                      (i32.shr_u
                        (i32.load8_u (i32.add (local.get $triples) (i32.shr_u (local.get $h) (i32.const 3))))
                        (i32.and (local.get $h) (i32.const 7)))
                      (i32.const 1)))
                  (i32.lt_u (local.get $q) (local.get $end)))
                (i32.const 3))))
            (local.set $bits (i32.and (local.get $bits) (i32.sub (local.get $bits) (i32.const 1))))
            (br $lane)))
        (local.set $w (i32.add (local.get $w) (i32.const 4)))
        (br $block)))
    (i32.shr_u (i32.sub (local.get $o) (local.get $out)) (i32.const 3)))

  ;; Looks at the UTF-16 code units from `start` up to `end` (then at least 16 zero bytes),
  ;; eight at a time, for one inside any of `count` ranges at `ranges` (each two u16: its
  ;; first unit and its width minus one). A block is only compared with the ranges when it
  ;; holds a unit above `floor` (every range's first unit minus one is at least that).
  ;; Returns the address of the first block with such a unit, or -1.
  (func $findWide
    (param $start i32) (param $end i32) (param $ranges i32) (param $count i32) (param $floor i32) (result i32)
    (local $p i32) (local $r i32) (local $x v128) (local $above v128)
    (local.set $above (i16x8.splat (local.get $floor)))
    (local.set $p (local.get $start))
    (block $done
      (loop $next
        (br_if $done (i32.ge_u (local.get $p) (local.get $end)))
        (local.set $x (v128.load (local.get $p)))
        (if (v128.any_true (i16x8.gt_u (local.get $x) (local.get $above)))
          (then
            (local.set $r (i32.const 0))
            (block $none
              (loop $range
                (br_if $none (i32.ge_u (local.get $r) (local.get $count)))
                (if (v128.any_true (i16x8.le_u
                      (i16x8.sub (local.get $x)
                        (i16x8.splat (i32.load16_u (i32.add (local.get $ranges) (i32.shl (local.get $r) (i32.const 2))))))
                      (i16x8.splat (i32.load16_u offset=2 (i32.add (local.get $ranges) (i32.shl (local.get $r) (i32.const 2)))))))
                  (then (return (local.get $p))))
                (local.set $r (i32.add (local.get $r) (i32.const 1)))
                (br $range)))))
        (local.set $p (i32.add (local.get $p) (i32.const 16)))
        (br $next)))
    (i32.const -1))

  ;; Copies `count` UTF-16 code units from `src` to one byte each at `dst`, a unit above
  ;; 255 becoming 255 and one from 0x8000 up becoming 0 (the saturating narrowing of
  ;; signed 16-bit lanes), sixteen at a time; writes up to 15 bytes past `count` (and reads
  ;; as far past the units). On the way it looks for units inside any of `rangeCount`
  ;; ranges at `ranges` (as `findWide`), unless `floor` is 0xFFFF: a group of 256 units is
  ;; handed to `findWide` only when one of them is above `floor`, which ordinary text
  ;; seldom has, so the copy costs what it did without the search. Writes at `flags` one
  ;; byte per group of 256 units, 1 where the group holds a unit inside the ranges. Returns
  ;; the byte offset (from the first unit) of the first 8 units holding one, or -1.
  (func (export "narrow") (param $src i32) (param $dst i32) (param $count i32) (param $ranges i32)
    (param $rangeCount i32) (param $floor i32) (param $flags i32) (result i32)
    (local $end i32) (local $group i32) (local $from i32) (local $at i32) (local $first i32) (local $here i32)
    (local $x v128) (local $y v128) (local $top v128) (local $above v128)
    (local.set $end (i32.add (local.get $dst) (local.get $count)))
    (local.set $above (i16x8.splat (local.get $floor)))
    (local.set $from (local.get $src))
    (local.set $first (local.get $src))
    (local.set $at (i32.const -1))
    (block $done
      (loop $groups
        (br_if $done (i32.ge_u (local.get $dst) (local.get $end)))
        ;; The next 256 units, or as many as are left.
        (local.set $group (i32.add (local.get $dst) (i32.const 256)))
        (local.set $group (select (local.get $end) (local.get $group) (i32.gt_u (local.get $group) (local.get $end))))
        (local.set $top (v128.const i32x4 0 0 0 0))
        (block $full
          (loop $next
            (br_if $full (i32.ge_u (local.get $dst) (local.get $group)))
            (local.set $x (v128.load (local.get $src)))
            (local.set $y (v128.load offset=16 (local.get $src)))
            (v128.store (local.get $dst) (i8x16.narrow_i16x8_u (local.get $x) (local.get $y)))
            (local.set $top (i16x8.max_u (local.get $top) (i16x8.max_u (local.get $x) (local.get $y))))
            (local.set $src (i32.add (local.get $src) (i32.const 32)))
            (local.set $dst (i32.add (local.get $dst) (i32.const 16)))
            (br $next)))
        ;; A unit above the floor (the saturating subtraction leaves something): where is it?
        (local.set $here (i32.const -1))
        (if (v128.any_true (i16x8.sub_sat_u (local.get $top) (local.get $above)))
          (then
            (local.set $here (call $findWide (local.get $from) (local.get $src) (local.get $ranges) (local.get $rangeCount)
              (local.get $floor)))
            (if (i32.and (i32.ge_s (local.get $here) (i32.const 0)) (i32.lt_s (local.get $at) (i32.const 0)))
              (then (local.set $at (i32.sub (local.get $here) (local.get $first)))))))
        (i32.store8 (local.get $flags) (i32.ge_s (local.get $here) (i32.const 0)))
        (local.set $flags (i32.add (local.get $flags) (i32.const 1)))
        (local.set $from (local.get $src))
        (br $groups)))
    (local.get $at)))
