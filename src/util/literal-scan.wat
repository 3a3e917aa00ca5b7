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
;; Memory: the tables at 0 (position j: low at 32j, high 16 bytes after), a bitmap of
;; the fingerprints' exact byte triples at 8192 (bit (triple × 0x9E3779B1) >> 16, the
;; triple read little-endian), the text and the output where the caller puts them.
(module
  (memory (export "memory") 1)

  ;; Looks at the 16-byte blocks from `start` (text bytes, then at least 32 zero bytes) up
  ;; to `end`, and writes an i32 for each candidate position, in order, from `out`: its
  ;; offset times 256 plus its buckets (a bit each). Returns the number of candidates.
  ;; Bytes 96 to 111 are scratch; bytes 8192 to 16383 are the bitmap of exact triples.
  (func (export "find") (param $start i32) (param $end i32) (param $out i32) (result i32)
    (local $p i32) (local $o i32) (local $lanes i32) (local $lane i32) (local $scratch i32) (local $q i32) (local $h i32)
    (local $nib v128) (local $x v128) (local $lo v128) (local $hi v128)
    (local $a v128)
    (local $a0l v128) (local $a0h v128) (local $a1l v128) (local $a1h v128) (local $a2l v128) (local $a2h v128)
    (local.set $nib (i8x16.splat (i32.const 15)))
    (local.set $a0l (v128.load (i32.const 0)))
    (local.set $a0h (v128.load (i32.const 16)))
    (local.set $a1l (v128.load (i32.const 32)))
    (local.set $a1h (v128.load (i32.const 48)))
    (local.set $a2l (v128.load (i32.const 64)))
    (local.set $a2h (v128.load (i32.const 80)))
    (local.set $p (local.get $start))
    (local.set $o (local.get $out))
    (local.set $scratch (i32.const 96))
    (block $done
      (loop $next
        (br_if $done (i32.ge_u (local.get $p) (local.get $end)))
        ;; Position 0 of the fingerprint: the bytes at p.
        (local.set $x (v128.load (local.get $p)))
        (local.set $lo (v128.and (local.get $x) (local.get $nib)))
        (local.set $hi (v128.and (i16x8.shr_u (local.get $x) (i32.const 4)) (local.get $nib)))
        (local.set $a (v128.and
          (i8x16.swizzle (local.get $a0l) (local.get $lo))
          (i8x16.swizzle (local.get $a0h) (local.get $hi))))
        ;; Position 1: the bytes at p + 1.
        (local.set $x (v128.load offset=1 (local.get $p)))
        (local.set $lo (v128.and (local.get $x) (local.get $nib)))
        (local.set $hi (v128.and (i16x8.shr_u (local.get $x) (i32.const 4)) (local.get $nib)))
        (local.set $a (v128.and (local.get $a) (v128.and
          (i8x16.swizzle (local.get $a1l) (local.get $lo))
          (i8x16.swizzle (local.get $a1h) (local.get $hi)))))
        ;; Position 2: the bytes at p + 2.
        (local.set $x (v128.load offset=2 (local.get $p)))
        (local.set $lo (v128.and (local.get $x) (local.get $nib)))
        (local.set $hi (v128.and (i16x8.shr_u (local.get $x) (i32.const 4)) (local.get $nib)))
        (local.set $a (v128.and (local.get $a) (v128.and
          (i8x16.swizzle (local.get $a2l) (local.get $lo))
          (i8x16.swizzle (local.get $a2h) (local.get $hi)))))
        (if (v128.any_true (local.get $a))
          (then
            (v128.store (local.get $scratch) (local.get $a))
            (local.set $lanes (i8x16.bitmask (i8x16.ne (local.get $a) (v128.const i32x4 0 0 0 0))))
            (loop $lane
              (local.set $lane (i32.ctz (local.get $lanes)))
              (local.set $q (i32.add (local.get $p) (local.get $lane)))
              ;; The three bytes at the position, hashed to one of 65,536 bits: kept only if
              ;; some fingerprint holds those three bytes exactly (the nibble tables accept
              ;; more), which drops most false alarms before they cost the caller anything.
              (local.set $h (i32.shr_u
                (i32.mul
                  (i32.or (i32.load8_u (local.get $q))
                    (i32.or (i32.shl (i32.load8_u offset=1 (local.get $q)) (i32.const 8))
                      (i32.shl (i32.load8_u offset=2 (local.get $q)) (i32.const 16))))
                  (i32.const 0x9E3779B1))
                (i32.const 16)))
              (if (i32.and
                    (i32.load8_u offset=8192 (i32.shr_u (local.get $h) (i32.const 3)))
                    (i32.shl (i32.const 1) (i32.and (local.get $h) (i32.const 7))))
                (then
                  ;; One i32 per candidate: its offset times 256 plus its buckets.
                  (i32.store (local.get $o)
                    (i32.or
                      (i32.shl (local.get $q) (i32.const 8))
                      (i32.load8_u (i32.add (local.get $scratch) (local.get $lane)))))
                  (local.set $o (i32.add (local.get $o) (i32.const 4)))))
              (local.set $lanes (i32.and (local.get $lanes) (i32.sub (local.get $lanes) (i32.const 1))))
              (br_if $lane (local.get $lanes)))))
        (local.set $p (i32.add (local.get $p) (i32.const 16)))
        (br $next)))
    (i32.shr_u (i32.sub (local.get $o) (local.get $out)) (i32.const 2)))

  ;; Looks at the UTF-16 code units from `start` up to `end` (then at least 16 zero bytes),
  ;; eight at a time, for one inside any of `count` ranges at `ranges` (each two u16: its
  ;; first unit and its width minus one). A block is only compared with the ranges when it
  ;; holds a unit above `floor` (every range's first unit minus one is at least that).
  ;; Returns the byte offset of the first block with such a unit, or -1.
  (func (export "findWide")
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
  ;; signed 16-bit lanes), sixteen at a time; writes up to 15 bytes past `count`.
  (func (export "narrow") (param $src i32) (param $dst i32) (param $count i32)
    (local $end i32)
    (local.set $end (i32.add (local.get $dst) (local.get $count)))
    (block $done
      (loop $next
        (br_if $done (i32.ge_u (local.get $dst) (local.get $end)))
        (v128.store (local.get $dst)
          (i8x16.narrow_i16x8_u (v128.load (local.get $src)) (v128.load offset=16 (local.get $src))))
        (local.set $src (i32.add (local.get $src) (i32.const 32)))
        (local.set $dst (i32.add (local.get $dst) (i32.const 16)))
        (br $next)))))

