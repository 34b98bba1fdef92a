/*
 * The freeing protocol of a seam's core (Sources/Mischief/Internal/SeamCore.swift and SeamCore+Ownership.swift),
 * checked exhaustively by Scripts/model-check.sh with spin.
 *
 * Callers run the chaos path forever: load the word; announce themselves in its phase (entered += 1); reload the
 * word; if the phase is the one announced, use the box it names (no reference count), then leave (left += 1);
 * else undo (left += 1) and retry with what the reload saw. The registry installs new boxes or nothing, retires
 * the box it replaces with that box's phase, frees a retired box when its phase has drained (per shard, `left`
 * read before `entered` gives the same value), and moves the current box out of a phase a retired box waits on.
 * Box ids are reused once freed, as addresses are.
 *
 * Properties:
 *   safety   - a box is never freed while a call uses it, and a call never uses a freed box (assertions);
 *   liveness - every retired box is eventually freed while callers keep calling the current one (ltl `freed`,
 *              checked with weak fairness: a retired box waits for its own calls, never for later ones).
 *
 * Variants (spin -D...): OLD_BUG is the protocol before the fix (installing nothing cleared the phase, and the
 * phase was flipped from the word's), whose liveness fails; NO_RELOAD uses the first load's box without the
 * reload, whose safety fails; LANE_RACE lets two callers leave one shard with a load and a store, as two threads
 * would if they shared a lane, and a lost `left` keeps a box from ever being freed. CALLERS and SHARDS set the
 * sizes.
 *
 * Memory model: the reload, the word's stores and the drain check's loads are sequentially consistent here (the
 * reload is an acquiring load in the code: the word's stores and the drain check's loads are sequentially
 * consistent, and what the reload may see early is the caller's own announcement, modelled below); `left` is a
 * release increment read by those loads. On a *lane* (a shard one thread owns, mischief_lanes.h) `left` is a load
 * and a release store, which is the same increment because no other thread writes it (an async call, which may
 * leave on another thread, uses a shared shard).
 *
 * The announcement (`entered`) on a lane is a plain store followed by a compiler barrier when the process has
 * asymmetric fences (mischief_fence.h, Linux membarrier): it may sit in the caller's store buffer, unseen by the
 * drain check, while the reload goes ahead (`pending`; a Flusher process empties store buffers at any time, and a
 * caller's later `left` store cannot pass it: stores leave in order). The registry's drain check starts with the
 * kernel's barrier on every thread, which empties them all. Variants: LOCKED_ENTRY is the read-modify-write a process
 * without membarrier uses (visible at once); NO_FENCE drops the registry's barrier, whose safety fails.
 */
#ifndef CALLERS
#define CALLERS 2
#endif
#ifndef SHARDS
#define SHARDS 2
#endif
#ifndef INSTALLS
#define INSTALLS 4
#endif
#define BOXES 4 /* ids 1..3; 0 is "no box" */

/* The seam's word (the counting bit plays no part in freeing). */
byte wordBox = 0;
bit wordPhase = 0;

/* Per shard and phase: entered - left. */
byte inside[SHARDS * 2];
/* The drain check reads `left` (t1) then `entered` (t2) of a shard: they are equal exactly when nothing was
   inside at t1 and nothing entered in between. `clean` records that: set at t1, cleared by every entry. */
bool clean[SHARDS * 2];

/* Announcements made with a plain store that the drain check cannot see yet (store buffers). */
byte pending[SHARDS * 2];

/* A store buffer empties: a pending announcement becomes an entry the drain check sees. */
inline flush(idx) {
    if
    :: pending[idx] > 0 -> inside[idx] = inside[idx] + pending[idx]; pending[idx] = 0; clean[idx] = false
    :: else -> skip
    fi
}

/* Ghost state for the properties. */
byte users[BOXES];      /* calls using the box */
bool allocated[BOXES];

/* The registry's side (under its lock in the code). */
byte current = 0;
bit phase = 0;          /* the phase the word publishes the current box in */
bool retired[BOXES];
bool may[BOXES * 2];    /* box b may have calls in phase ph: may[b * 2 + ph] */

proctype Caller(byte shard) {
    byte box; bit p; byte seen; bit seenPhase; byte left;
    do
    :: atomic { box = wordBox; p = wordPhase }            /* relaxed load */
       do
       :: box == 0 -> break                               /* no box: the original */
       :: box != 0 ->
#ifdef NO_RELOAD
          atomic { inside[shard * 2 + p]++; clean[shard * 2 + p] = false }
          seen = box;
#else
#ifdef LOCKED_ENTRY
          atomic { inside[shard * 2 + p]++; clean[shard * 2 + p] = false }   /* entered(p) += 1, locked */
#else
          pending[shard * 2 + p]++;                                          /* entered(p) += 1, a plain store */
#endif
          atomic { seen = wordBox; seenPhase = wordPhase }                   /* reload */
          if
          :: seenPhase != p || seen == 0 ->
             atomic { flush(shard * 2 + p); inside[shard * 2 + p]-- }       /* undo: left(p) += 1 */
             box = seen; p = seenPhase;
             goto retry
          :: else -> skip
          fi;
#endif
          atomic { assert(allocated[seen]); users[seen]++ }                  /* runs the behaviour */
          atomic { assert(allocated[seen]); users[seen]-- }
#ifdef LANE_RACE
          atomic { flush(shard * 2 + p); left = inside[shard * 2 + p] }      /* left(p): load ... */
          atomic { inside[shard * 2 + p] = left - 1; box = 0; seen = 0; p = 0; seenPhase = 0; left = 0 } /* store */
#else
          atomic { flush(shard * 2 + p); inside[shard * 2 + p]--; box = 0; seen = 0; p = 0; seenPhase = 0 } /* left */
#endif
          break;
retry:    skip
       od
    od
}

/* Empties a store buffer at any time. */
proctype Flusher() {
    byte k;
    do
    :: atomic { select(k : 0 .. SHARDS * 2 - 1); flush(k); k = 0 }
    od
}

/* Whether phase `ph` has drained: one step per read, as in SeamCore.isDrained, after the kernel's barrier on every
   thread (membarrier), which empties every store buffer. */
inline drained(ph, result) {
    result = true;
    s = 0;
#ifndef NO_FENCE
    atomic {
        do
        :: s < SHARDS * 2 -> flush(s); s++
        :: else -> break
        od;
        s = 0
    };
#endif
    do
    :: s < SHARDS ->
       clean[s * 2 + ph] = (inside[s * 2 + ph] == 0);                        /* t1: read left */
       if                                                                    /* t2: read entered */
       :: !clean[s * 2 + ph] -> atomic { clean[s * 2 + ph] = false; result = false }; break
       :: else -> atomic { clean[s * 2 + ph] = false; s++ }   /* (clean is the model's, reset after use) */
       fi
    :: else -> break
    od;
    s = 0
}

/* Whether a retired box may have calls in phase `ph`. */
#define busy(ph) ((retired[1] && may[2 + ph]) || (retired[2] && may[4 + ph]) || (retired[3] && may[6 + ph]))
/* Whether a box no longer published in phase `ph` may have calls there. */
#define stale(bx, ph) (may[bx * 2 + ph] && (retired[bx] || (bx == current && ph != phase)))

/* For every phase a box no longer published there may have calls in: once it has drained, it has none; a
   retired box with none left is freed. */
inline reclaimDrained() {
    ph = 0;
    do
    :: ph < 2 ->
       if
       :: stale(1, ph) || stale(2, ph) || stale(3, ph) ->
          drained(ph, ok);
          if
          :: ok ->
             b = 1;
             do
             :: b < BOXES -> if :: stale(b, ph) -> may[b * 2 + ph] = false :: else -> skip fi; b++
             :: else -> break
             od
          :: else -> skip
          fi
       :: else -> skip
       fi;
       ph++
    :: else -> break
    od;
    b = 1;
    do
    :: b < BOXES ->
       if
       :: retired[b] && !may[b * 2] && !may[b * 2 + 1] ->
          atomic { assert(users[b] == 0); retired[b] = false; allocated[b] = false }
       :: else -> skip
       fi;
       b++
    :: else -> break
    od;
    atomic { b = 0; ph = 0; ok = false }
}

/* SeamCore.reclaim: free what drained; publish the current box in the other phase when only its own is busy. */
inline reclaim() {
    reclaimDrained();
#ifndef OLD_BUG
    if
    :: current != 0 && busy(phase) && !busy(1 - phase) ->
       phase = 1 - phase;
       may[current * 2 + phase] = true;
       atomic { wordPhase = phase }
    :: else -> skip
    fi
#endif
}

/* SeamCore.install: retire the current box, install `next` (0 for nothing) in a phase no retired box waits on. */
inline install(next) {
    reclaimDrained();
#ifdef OLD_BUG
    /* Before the fix: the retired box took the word's phase, installing nothing cleared it, and a new box
       flipped whatever the word held. */
    if
    :: current != 0 -> retired[current] = true; may[current * 2] = false; may[current * 2 + 1] = false;
       may[current * 2 + wordPhase] = true
    :: else -> skip
    fi;
    current = next;
    if
    :: next != 0 -> phase = 1 - wordPhase; may[next * 2 + phase] = true
    :: else -> phase = 0
    fi;
#else
    if
    :: current != 0 -> retired[current] = true
    :: else -> skip
    fi;
    current = next;
    if
    :: next != 0 ->
       if
       :: !busy(1 - phase) -> phase = 1 - phase
       :: else -> if
                  :: !busy(phase) -> skip
                  :: else -> phase = 1 - phase   /* none free: share; reclaim moves it when one is */
                  fi
       fi;
       may[next * 2 + phase] = true
    :: else -> skip
    fi;
#endif
    atomic { wordBox = current; wordPhase = phase }                          /* sequentially consistent store */
    reclaimDrained()
}

proctype Registry() {
    byte ops = 0; byte s; byte ph; bool ok; byte b; byte fresh;
    do
    :: ops < INSTALLS ->
       if                                                   /* apply: a new box at the lowest free id */
       :: !allocated[1] -> fresh = 1                        /* (ids are reused, as addresses are) */
       :: allocated[1] && !allocated[2] -> fresh = 2
       :: allocated[1] && allocated[2] && !allocated[3] -> fresh = 3
       :: true -> fresh = 0                                 /* revert everything */
       fi;
       if
       :: fresh != 0 -> allocated[fresh] = true
       :: else -> skip
       fi;
       install(fresh);
       atomic { ops++; fresh = 0 }
    :: reclaim()                                            /* settle, snapshot: at any time */
    :: ops == INSTALLS -> break
    od;
    do
    :: reclaim()
    od
}

init {
    byte i = 0;
    atomic {
        do
        :: i < CALLERS -> run Caller(i % SHARDS); i++
        :: else -> break
        od;
        run Registry();
#ifndef LOCKED_ENTRY
        run Flusher()
#endif
    }
}

ltl freed {
    [] ((retired[1] -> <> !retired[1]) && (retired[2] -> <> !retired[2]) && (retired[3] -> <> !retired[3]))
}
