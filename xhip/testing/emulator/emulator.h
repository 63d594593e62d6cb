// xhip's CPU emulator of the CUDA/HIP built-ins its kernels use (test-only).
//
// The kernel source is compiled by the host C++ compiler after this header;
// xhip/testing/emulator/build.py rewrites `__shared__` declarations into calls
// of shared_static / dynamic_shared and appends one launch entry per kernel.
//
// Each GPU thread of a block is a fiber (ucontext) of one OS thread; a block's
// fibers run round robin until each finishes or waits at a barrier, so
// __syncthreads and the warp intrinsics are real barriers, the run is
// deterministic, and a barrier that not every thread reaches is reported as a
// deadlock instead of hanging. Blocks run one after another. Uninitialised
// shared memory and undefined shuffle results read as all-ones bytes (a NaN
// in floats, -1 in integers), so kernels that use them fail their tests.
//
// Strict where a GPU is: build.py compiles with -fsanitize=alignment, whose
// handler below stops the kernel at a load or store not aligned to its type
// (a GPU faults), and with -fsanitize=kernel-address, whose per-access hooks
// stop it at an access into device memory outside every allocation a pointer
// argument points into (the tables come from EmulatedDevice, per launch). A
// launch may run with flush-to-zero (MXCSR FTZ and DAZ, or AArch64's FPCR.FZ)
// as NVRTC's -ftz=true does, restored when it returns.

#pragma once

#include <math.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <ucontext.h>
#include <unistd.h>
#if defined(__x86_64__) || defined(__i386__)
#include <xmmintrin.h>
#endif

#include <algorithm>
#include <deque>
#include <functional>
#include <random>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

// CUDA's vector and index types.

struct uint3 {
  unsigned int x, y, z;
};
struct dim3 {
  unsigned int x, y, z;
  constexpr dim3(unsigned int x_ = 1, unsigned int y_ = 1, unsigned int z_ = 1)
      : x(x_), y(y_), z(z_) {}
};
struct __attribute__((aligned(8))) float2 {
  float x, y;
};
struct __attribute__((aligned(16))) float4 {
  float x, y, z, w;
};
struct __attribute__((aligned(8))) int2 {
  int x, y;
};
struct __attribute__((aligned(16))) int4 {
  int x, y, z, w;
};
inline float2 make_float2(float x, float y) { return {x, y}; }
inline float4 make_float4(float x, float y, float z, float w) { return {x, y, z, w}; }
inline int2 make_int2(int x, int y) { return {x, y}; }
inline int4 make_int4(int x, int y, int z, int w) { return {x, y, z, w}; }

namespace xhip_emu {

constexpr size_t kStackBytes = 256 * 1024;
constexpr size_t kGuardBytes = 64;
constexpr size_t kStaticSharedCapacity = 256 * 1024;
constexpr unsigned kMaxThreads = 1024;

enum Wait { kRunning = 0, kBlockBarrier = 1, kWarpSync = 2 };

struct Fiber {
  ucontext_t context;  // to start it
  jmp_buf jump;        // to resume it
  bool started;
  ::uint3 index;
  unsigned linear;
  bool done;
  int waiting;
};

// A barrier of a group of threads (a block, or the lanes of a warp named by a
// mask) with a two-round exchange area: round r uses slots[r & 1], so a lane
// that is one round ahead never overwrites what a slower lane still reads.
struct Sync {
  unsigned long long group = 0;
  unsigned arrived = 0;
  unsigned long long generation = 0;
  long long count[2] = {0, 0};
  std::vector<unsigned long long> slots[2];
};

struct Warp {
  unsigned long long lanes = 0;  // the lanes that exist (a block's last warp may be partial)
  std::deque<Sync> syncs;        // one per mask in use; a deque keeps references valid
};

// A byte range [lo, hi) of host addresses.
struct Range {
  uintptr_t lo, hi;
};

// What a launch may touch of device memory: `watched` (sorted) is every live
// device allocation with its guard bytes, `allowed` the allocations that the
// pointer arguments point into; the span [lo, hi) of `watched` rejects the
// other addresses (stacks, shared memory, the emulator's state) at once.
// Plain pointers, not vectors: the access hooks must call nothing instrumented.
struct Memory {
  const Range* watched = nullptr;
  size_t watched_count = 0;
  const Range* allowed = nullptr;
  size_t allowed_count = 0;
  uintptr_t lo = 0, hi = 0;
};

struct State {
  ::uint3 block_idx{0, 0, 0};
  ::dim3 block_dim, grid_dim;
  unsigned threads = 0;
  unsigned warp_size = 32;
  Fiber* current = nullptr;
  jmp_buf scheduler;
  unsigned long long progress = 0;
  bool failed = false;
  std::string error;
  std::vector<Fiber> fibers;
  std::vector<char*> stacks;
  std::vector<Warp> warps;
  Sync block;
  std::vector<unsigned char> dynamic_shared;
  size_t dynamic_bytes = 0;
  std::vector<unsigned char> static_shared = std::vector<unsigned char>(kStaticSharedCapacity);
  size_t static_used = 0;
  size_t static_poisoned = 0;
  std::vector<void*> static_slots;
  size_t max_shared = 48 * 1024;
  const std::function<void()>* body = nullptr;
  Memory memory;                       // what the hooks check: `tables` during a launch
  Memory tables;                       // set_memory's, over `watched` and `allowed`
  std::vector<Range> watched, allowed;
  uintptr_t fault = 0;  // the address of the access that stopped the kernel, if one did
};

inline State g;

inline std::string where() {
  char text[96];
  snprintf(text, sizeof text, "block (%u,%u,%u)", g.block_idx.x, g.block_idx.y,
           g.block_idx.z);
  std::string out = text;
  if (g.current) {
    snprintf(text, sizeof text, " thread (%u,%u,%u)", g.current->index.x,
             g.current->index.y, g.current->index.z);
    out += text;
  }
  return out;
}

// Switches go through _setjmp/_longjmp (no signal-mask system call, unlike
// swapcontext); a fiber starts once with setcontext on its own stack.
inline void yield() {
  if (!_setjmp(g.current->jump)) _longjmp(g.scheduler, 1);
}

inline void resume(Fiber& f) {
  g.current = &f;
  if (_setjmp(g.scheduler)) return;
  if (f.started) _longjmp(f.jump, 1);
  f.started = true;
  setcontext(&f.context);
}

// Stops the kernel: records the first error and never resumes this fiber.
[[noreturn]] inline void fail(const std::string& message) {
  if (!g.failed) {
    g.failed = true;
    g.error = where() + ": " + message;
  }
  for (;;) yield();
}

inline void trap() { fail("__trap() called"); }

// Memory checks. The kernel-address hooks and the alignment handler (end of
// this file) run on every access of the instrumented code, so they are not
// instrumented themselves and call nothing that is, until they report.

#define XHIP_EMU_UNCHECKED \
  __attribute__((no_sanitize_address, no_sanitize("alignment"), visibility("hidden")))

// Stops the kernel at a bad access; the Python side names the argument.
inline void memory_fault(uintptr_t address, const char* message) {
  if (!g.failed) g.fault = address;
  if (g.current) fail(message);
  if (!g.failed) {  // not in a kernel thread: the launch fails when it returns
    g.failed = true;
    g.error = message;
  }
}

XHIP_EMU_UNCHECKED inline void check_access(uintptr_t a, size_t n, bool store) {
  const Memory& m = g.memory;
  if (a >= m.hi || a + n <= m.lo) return;
  for (size_t i = 0; i < m.allowed_count; ++i)
    if (a >= m.allowed[i].lo && a + n <= m.allowed[i].hi) return;
  size_t lo = 0, hi = m.watched_count;  // lo: the first range that starts after a
  while (lo < hi) {
    size_t mid = (lo + hi) / 2;
    if (m.watched[mid].lo <= a)
      lo = mid + 1;
    else
      hi = mid;
  }
  if ((lo > 0 && m.watched[lo - 1].hi > a) ||
      (lo < m.watched_count && m.watched[lo].lo < a + n)) {
    char text[96];
    snprintf(text, sizeof text, "out-of-bounds %s of %zu bytes at 0x%llx",
             store ? "store" : "load", n, (unsigned long long)a);
    memory_fault(a, text);
  }
}

// Turns the bounds checks on for one launch: the hooks check nothing outside
// launches, so set_memory can rebuild the tables they read.
class CheckMemory {
 public:
  XHIP_EMU_UNCHECKED CheckMemory() { g.memory = g.tables; }
  XHIP_EMU_UNCHECKED ~CheckMemory() { g.memory = Memory(); }
  CheckMemory(const CheckMemory&) = delete;
  CheckMemory& operator=(const CheckMemory&) = delete;
};

// Flush-to-zero for one launch, as NVRTC's -ftz=true: mode bit 1 flushes
// float results that would be subnormal to zero (x86 MXCSR.FTZ), bit 2 reads
// subnormal inputs as zero (MXCSR.DAZ). The CPU flags cover double too, so
// the Python side picks the bits per kernel (device.py, `denormals`).
// AArch64 has one flag for both (FPCR.FZ), set for any nonzero mode.
class FlushToZero {
 public:
  explicit FlushToZero(int mode) : mode_(mode) {
    if (!mode_) return;
#if defined(__x86_64__) || defined(__i386__)
    saved_ = _mm_getcsr();
    _mm_setcsr(saved_ | (mode_ & 1 ? 0x8000u : 0u) | (mode_ & 2 ? 0x0040u : 0u));
#elif defined(__aarch64__)
    __asm__ volatile("mrs %0, fpcr" : "=r"(saved_));
    unsigned long long fz = saved_ | (1ull << 24);
    __asm__ volatile("msr fpcr, %0" : : "r"(fz));
#endif
  }
  ~FlushToZero() {
    if (!mode_) return;
#if defined(__x86_64__) || defined(__i386__)
    _mm_setcsr(saved_);
#elif defined(__aarch64__)
    __asm__ volatile("msr fpcr, %0" : : "r"(saved_));
#endif
  }
  FlushToZero(const FlushToZero&) = delete;
  FlushToZero& operator=(const FlushToZero&) = delete;
  static bool supported() {
#if defined(__x86_64__) || defined(__i386__) || defined(__aarch64__)
    return true;
#else
    return false;
#endif
  }

 private:
  int mode_;
#if defined(__aarch64__)
  unsigned long long saved_ = 0;
#else
  unsigned saved_ = 0;
#endif
};

// Arrive at `s` and wait until `expected` threads have; returns the round.
inline unsigned long long wait(Sync& s, unsigned expected, int kind) {
  unsigned long long round = s.generation;
  if (++s.arrived == expected) {
    s.arrived = 0;
    s.count[(round + 1) & 1] = 0;
    ++s.generation;
    ++g.progress;
    return round;
  }
  g.current->waiting = kind;
  while (s.generation == round) yield();
  g.current->waiting = kRunning;
  return round;
}

// Block-wide barriers.

inline long long block_barrier(int predicate) {
  Sync& s = g.block;
  s.count[s.generation & 1] += predicate != 0;
  unsigned long long round = wait(s, g.threads, kBlockBarrier);
  return s.count[round & 1];
}

// Warps.

inline unsigned lane() { return g.current->linear % g.warp_size; }

inline unsigned long long full_mask() {
  return g.warp_size == 64 ? ~0ull : (1ull << g.warp_size) - 1;
}

inline Sync& warp_sync(unsigned long long mask, const char* name) {
  Warp& w = g.warps[g.current->linear / g.warp_size];
  unsigned me = lane();
  if (!(mask >> me & 1)) {
    char text[160];
    snprintf(text, sizeof text,
             "%s with mask 0x%llx, which does not name the calling lane %u of a "
             "%u-wide warp",
             name, mask, me, g.warp_size);
    fail(text);
  }
  unsigned long long group = mask & w.lanes;
  for (Sync& s : w.syncs)
    if (s.group == group) return s;
  Sync& s = w.syncs.emplace_back();
  s.group = group;
  s.slots[0].assign(g.warp_size, 0);
  s.slots[1].assign(g.warp_size, 0);
  return s;
}

template <class T>
inline T poison() {
  T value;
  memset(&value, 0xFF, sizeof value);
  return value;
}

inline unsigned check_width(int width, const char* name) {
  if (width <= 0 || (unsigned)width > g.warp_size || (width & (width - 1)) != 0)
    fail(std::string(name) + ": width must be a power of two <= warpSize, got " +
         std::to_string(width));
  return (unsigned)width;
}

// Every lane of the group publishes `value`; returns the value of lane `src`
// (poison when `src` is not in the group: undefined on a GPU).
template <class T>
inline T exchange(unsigned long long mask, T value, unsigned src, const char* name) {
  static_assert(std::is_trivially_copyable<T>::value && sizeof(T) <= 8,
                "warp shuffles move values of at most 8 bytes");
  Sync& s = warp_sync(mask, name);
  unsigned me = lane();
  unsigned long long bits = 0;
  memcpy(&bits, &value, sizeof value);
  std::vector<unsigned long long>& slots = s.slots[s.generation & 1];
  slots[me] = bits;
  wait(s, (unsigned)__builtin_popcountll(s.group), kWarpSync);
  if (src == me) return value;
  if (src >= g.warp_size || !(s.group >> src & 1)) return poison<T>();
  T out;
  memcpy(&out, &slots[src], sizeof out);
  return out;
}

inline unsigned long long vote(unsigned long long mask, int predicate, const char* name) {
  Sync& s = warp_sync(mask, name);
  std::vector<unsigned long long>& slots = s.slots[s.generation & 1];
  slots[lane()] = predicate != 0;
  wait(s, (unsigned)__builtin_popcountll(s.group), kWarpSync);
  unsigned long long bits = 0;
  for (unsigned l = 0; l < g.warp_size; ++l)
    if ((s.group >> l & 1) && slots[l]) bits |= 1ull << l;
  return bits;
}

template <class T>
inline T shfl(unsigned long long mask, T var, int src_lane, int width, const char* name) {
  unsigned w = check_width(width, name), me = lane();
  return exchange(mask, var, me / w * w + (unsigned)src_lane % w, name);
}

template <class T>
inline T shfl_up(unsigned long long mask, T var, unsigned delta, int width, const char* name) {
  unsigned w = check_width(width, name), me = lane();
  return exchange(mask, var, me % w < delta ? me : me - delta, name);
}

template <class T>
inline T shfl_down(unsigned long long mask, T var, unsigned delta, int width,
                   const char* name) {
  unsigned w = check_width(width, name), me = lane();
  return exchange(mask, var, me % w + delta >= w ? me : me + delta, name);
}

template <class T>
inline T shfl_xor(unsigned long long mask, T var, int lane_mask, int width, const char* name) {
  unsigned w = check_width(width, name), me = lane();
  unsigned src = me ^ (unsigned)lane_mask;
  return exchange(mask, var, src >= me / w * w + w ? me : src, name);
}

// Shared memory: a per-block arena, poisoned when each block starts.

template <class T>
inline T& shared_static(int id) {
  if ((size_t)id >= g.static_slots.size()) g.static_slots.resize(id + 1, nullptr);
  void*& slot = g.static_slots[id];
  if (!slot) {
    size_t align = alignof(T) < 16 ? 16 : alignof(T);
    size_t offset = (g.static_used + align - 1) / align * align;
    if (offset + sizeof(T) > kStaticSharedCapacity ||
        offset + sizeof(T) + g.dynamic_bytes > g.max_shared)
      fail("static __shared__ (" + std::to_string(offset + sizeof(T)) +
           " bytes) and dynamic shared memory (" + std::to_string(g.dynamic_bytes) +
           " bytes) exceed the " + std::to_string(g.max_shared) + "-byte limit");
    g.static_used = offset + sizeof(T);
    g.static_poisoned = std::max(g.static_poisoned, g.static_used);
    slot = g.static_shared.data() + offset;
  }
  return *static_cast<T*>(slot);
}

inline void* dynamic_shared() { return g.dynamic_shared.data(); }

// Fibers and launches.

inline char* stack(unsigned i) {
  while (g.stacks.size() <= i) {
    size_t page = (size_t)sysconf(_SC_PAGESIZE);
    void* p = mmap(nullptr, kStackBytes + page, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (p == MAP_FAILED) return nullptr;
    mprotect(p, page, PROT_NONE);  // a stack overflow faults instead of corrupting
    g.stacks.push_back(static_cast<char*>(p) + page);
  }
  return g.stacks[i];
}

inline void fiber_main() {
  (*g.body)();
  g.current->done = true;
  _longjmp(g.scheduler, 1);
}

inline bool set_error(const std::string& message) {
  g.failed = true;
  g.error = message;
  return false;
}

inline bool run_block(int order, unsigned seed) {
  unsigned n = g.threads;
  g.fibers.resize(n);
  for (unsigned i = 0; i < n; ++i) {
    Fiber& f = g.fibers[i];
    f.index = {i % g.block_dim.x, i / g.block_dim.x % g.block_dim.y,
               i / (g.block_dim.x * g.block_dim.y)};
    f.linear = i;
    f.done = false;
    f.started = false;
    f.waiting = kRunning;
    char* sp = stack(i);
    if (!sp || getcontext(&f.context) != 0) return set_error("cannot make a fiber");
    f.context.uc_stack.ss_sp = sp;
    f.context.uc_stack.ss_size = kStackBytes;
    f.context.uc_link = nullptr;
    makecontext(&f.context, fiber_main, 0);
  }
  g.block = Sync();
  unsigned warps = (n + g.warp_size - 1) / g.warp_size;
  g.warps.assign(warps, Warp());
  for (unsigned w = 0; w < warps; ++w) {
    unsigned lanes = std::min(g.warp_size, n - w * g.warp_size);
    g.warps[w].lanes = lanes == 64 ? ~0ull : (1ull << lanes) - 1;
  }
  memset(g.static_shared.data(), 0xFF, g.static_poisoned);
  g.static_used = 0;
  std::fill(g.static_slots.begin(), g.static_slots.end(), nullptr);
  std::fill(g.dynamic_shared.begin(), g.dynamic_shared.end(), 0xFF);

  std::vector<unsigned> sequence(n);
  for (unsigned i = 0; i < n; ++i) sequence[i] = order == 1 ? n - 1 - i : i;
  if (order == 2) {
    std::mt19937 random(seed ^ (g.block_idx.x * 2654435761u) ^ (g.block_idx.y << 16) ^
                        g.block_idx.z);
    std::shuffle(sequence.begin(), sequence.end(), random);
  }
  unsigned live = n;
  while (live > 0) {
    unsigned long long before = g.progress;
    for (unsigned i : sequence) {
      Fiber& f = g.fibers[i];
      if (f.done) continue;
      resume(f);
      if (g.failed) return false;
      if (f.done) {
        --live;
        ++g.progress;
      }
    }
    if (live > 0 && g.progress == before) {
      unsigned block = 0, warp = 0;
      for (const Fiber& f : g.fibers) {
        block += f.waiting == kBlockBarrier;
        warp += f.waiting == kWarpSync;
      }
      g.current = nullptr;
      return set_error(where() + ": deadlock: " + std::to_string(block) +
                       " threads wait at __syncthreads, " + std::to_string(warp) +
                       " at a warp sync, " + std::to_string(n - live) +
                       " have exited (a barrier not every thread reaches)");
    }
  }
  g.current = nullptr;
  for (size_t i = g.dynamic_bytes; i < g.dynamic_shared.size(); ++i)
    if (g.dynamic_shared[i] != 0xFF)
      return set_error(where() + ": wrote past the " + std::to_string(g.dynamic_bytes) +
                       " bytes of dynamic shared memory");
  return true;
}

inline int launch(unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by,
                  unsigned bz, unsigned long long shared, int warp_size, int order,
                  unsigned seed, unsigned long long max_shared, int flush,
                  const std::function<void()>& body) {
  g.failed = false;
  g.error.clear();
  g.fault = 0;
  g.current = nullptr;
  g.block_idx = {0, 0, 0};
  unsigned long long threads = (unsigned long long)bx * by * bz;
  char text[200];
  if (warp_size <= 0 || warp_size > 64 || (warp_size & (warp_size - 1)) != 0) {
    snprintf(text, sizeof text, "warp size %d: not a power of two <= 64", warp_size);
    return set_error(text), 1;
  }
  if (threads == 0 || threads > kMaxThreads || bz > 64 || gx == 0 || gy == 0 ||
      gz == 0 || gx > 0x7fffffffu || gy > 65535 || gz > 65535) {
    snprintf(text, sizeof text,
             "invalid launch: grid (%u,%u,%u), block (%u,%u,%u) (at most 1024 threads "
             "a block, block z <= 64, grid y and z <= 65535)",
             gx, gy, gz, bx, by, bz);
    return set_error(text), 1;
  }
  if (flush && !FlushToZero::supported())
    return set_error("flush-to-zero is emulated on x86 and AArch64 only"), 1;
  FlushToZero ftz(flush);  // before the fibers' getcontext, which saves MXCSR/FPCR
  CheckMemory check;
  if (shared > max_shared) {
    snprintf(text, sizeof text, "dynamic shared memory of %llu bytes exceeds the %llu-byte limit",
             shared, max_shared);
    return set_error(text), 1;
  }
  g.grid_dim = ::dim3(gx, gy, gz);
  g.block_dim = ::dim3(bx, by, bz);
  g.threads = (unsigned)threads;
  g.warp_size = (unsigned)warp_size;
  g.max_shared = max_shared;
  g.dynamic_bytes = shared;
  g.dynamic_shared.assign(shared + kGuardBytes, 0xFF);
  g.body = &body;
  for (unsigned z = 0; z < gz; ++z)
    for (unsigned y = 0; y < gy; ++y)
      for (unsigned x = 0; x < gx; ++x) {
        g.block_idx = {x, y, z};
        if (!run_block(order, seed)) {
          g.current = nullptr;  // its fibers are never resumed
          return 1;
        }
      }
  g.body = nullptr;
  return 0;
}

template <class... A, size_t... I>
inline void call(void (*kernel)(A...), void** args, std::index_sequence<I...>) {
  kernel(*static_cast<std::remove_cv_t<A>*>(args[I])...);
}

template <class... A>
inline int launch_kernel(void (*kernel)(A...), unsigned gx, unsigned gy, unsigned gz,
                         unsigned bx, unsigned by, unsigned bz, unsigned long long shared,
                         int warp_size, int order, unsigned seed,
                         unsigned long long max_shared, int flush, void** args) {
  std::function<void()> body = [kernel, args] {
    call(kernel, args, std::index_sequence_for<A...>());
  };
  return launch(gx, gy, gz, bx, by, bz, shared, warp_size, order, seed, max_shared,
                flush, body);
}

// Sets the device-memory tables of the next launches (pairs lo, hi; `watched`
// sorted by lo); zero counts turn the bounds checks off. Outside a launch, so
// no hook reads the tables while they change.
inline void set_memory(const unsigned long long* watched, size_t watched_count,
                       const unsigned long long* allowed, size_t allowed_count) {
  g.watched.resize(watched_count);
  for (size_t i = 0; i < watched_count; ++i)
    g.watched[i] = {(uintptr_t)watched[2 * i], (uintptr_t)watched[2 * i + 1]};
  g.allowed.resize(allowed_count);
  for (size_t i = 0; i < allowed_count; ++i)
    g.allowed[i] = {(uintptr_t)allowed[2 * i], (uintptr_t)allowed[2 * i + 1]};
  Memory& m = g.tables;
  m = Memory();
  m.watched = g.watched.data();
  m.watched_count = watched_count;
  m.allowed = g.allowed.data();
  m.allowed_count = allowed_count;
  if (watched_count) m.lo = g.watched.front().lo, m.hi = g.watched.back().hi;
  for (const Range& r : g.watched) m.hi = std::max(m.hi, r.hi);
}

template <class T>
inline const char* kind() {
  if (std::is_pointer<T>::value) return "ptr";
  if (std::is_floating_point<T>::value) return sizeof(T) == 4 ? "f32" : "f64";
  if (std::is_integral<T>::value) {
    if (sizeof(T) == 4) return std::is_signed<T>::value ? "i32" : "u32";
    if (sizeof(T) == 8) return std::is_signed<T>::value ? "i64" : "u64";
  }
  return "other";
}

template <class T>
inline size_t pointee_alignment() {
  if constexpr (std::is_pointer<T>::value) {
    typedef std::remove_cv_t<std::remove_pointer_t<T>> P;
    if constexpr (std::is_void<P>::value)
      return 1;
    else
      return alignof(P);
  }
  return 0;
}

// "4,0,8,..": the alignment each pointer parameter's type needs (0: not a pointer).
template <class... A>
inline const char* alignments(void (*)(A...)) {
  static const std::string text = [] {
    std::string out;
    for (size_t a : {pointee_alignment<A>()..., (size_t)-1})
      if (a != (size_t)-1) out += std::string(out.empty() ? "" : ",") + std::to_string(a);
    return out;
  }();
  return text.c_str();
}

// "ptr,i32,..": the parameter kinds of a kernel, checked by the Python side.
template <class... A>
inline const char* signature(void (*)(A...)) {
  static const std::string text = [] {
    std::string out;
    for (const char* k : {kind<A>()..., (const char*)nullptr})
      if (k) out += std::string(out.empty() ? "" : ",") + k;
    return out;
  }();
  return text.c_str();
}

// Atomics: fibers switch only at barriers, so a plain read-modify-write is atomic.

template <class T, class F>
inline T atomic_update(T* address, F update) {
  T old = *address;
  *address = update(old);
  return old;
}

}  // namespace xhip_emu

// The CUDA/HIP language.

#define __global__
#define __device__
#define __host__
#define __constant__
#define __forceinline__ inline __attribute__((always_inline))
#define __noinline__ __attribute__((noinline))
#define __align__(n) __attribute__((aligned(n)))
#define __launch_bounds__(...)
#define HIP_DYNAMIC_SHARED(type, name) \
  type* name = static_cast<type*>(::xhip_emu::dynamic_shared());

#define threadIdx (static_cast<const ::uint3&>(::xhip_emu::g.current->index))
#define blockIdx (static_cast<const ::uint3&>(::xhip_emu::g.block_idx))
#define blockDim (static_cast<const ::dim3&>(::xhip_emu::g.block_dim))
#define gridDim (static_cast<const ::dim3&>(::xhip_emu::g.grid_dim))
#define warpSize (static_cast<int>(::xhip_emu::g.warp_size))
#define hipThreadIdx_x threadIdx.x
#define hipThreadIdx_y threadIdx.y
#define hipThreadIdx_z threadIdx.z
#define hipBlockIdx_x blockIdx.x
#define hipBlockIdx_y blockIdx.y
#define hipBlockIdx_z blockIdx.z
#define hipBlockDim_x blockDim.x
#define hipBlockDim_y blockDim.y
#define hipBlockDim_z blockDim.z
#define hipGridDim_x gridDim.x
#define hipGridDim_y gridDim.y
#define hipGridDim_z gridDim.z

inline void __syncthreads() { ::xhip_emu::block_barrier(0); }
inline int __syncthreads_count(int p) { return (int)::xhip_emu::block_barrier(p); }
inline int __syncthreads_and(int p) {
  return ::xhip_emu::block_barrier(p) == (long long)::xhip_emu::g.threads;
}
inline int __syncthreads_or(int p) { return ::xhip_emu::block_barrier(p) != 0; }
inline void __threadfence() {}
inline void __threadfence_block() {}
inline void __threadfence_system() {}
inline void __trap() { ::xhip_emu::trap(); }

// Warp intrinsics: CUDA's _sync forms (any integer mask; a calling lane must be
// in it) and HIP's mask-less forms (the whole warp).
inline unsigned __lane_id() { return ::xhip_emu::lane(); }
inline unsigned long long __activemask() {
  return ::xhip_emu::g.warps[::xhip_emu::g.current->linear / ::xhip_emu::g.warp_size].lanes;
}
inline void __syncwarp(unsigned long long mask = ~0ull) {
  ::xhip_emu::Sync& s = ::xhip_emu::warp_sync(mask, "__syncwarp");
  ::xhip_emu::wait(s, (unsigned)__builtin_popcountll(s.group), ::xhip_emu::kWarpSync);
}
template <class T>
inline T __shfl_sync(unsigned long long mask, T var, int src, int width = warpSize) {
  return ::xhip_emu::shfl(mask, var, src, width, "__shfl_sync");
}
template <class T>
inline T __shfl_up_sync(unsigned long long mask, T var, unsigned delta, int width = warpSize) {
  return ::xhip_emu::shfl_up(mask, var, delta, width, "__shfl_up_sync");
}
template <class T>
inline T __shfl_down_sync(unsigned long long mask, T var, unsigned delta,
                          int width = warpSize) {
  return ::xhip_emu::shfl_down(mask, var, delta, width, "__shfl_down_sync");
}
template <class T>
inline T __shfl_xor_sync(unsigned long long mask, T var, int lane_mask, int width = warpSize) {
  return ::xhip_emu::shfl_xor(mask, var, lane_mask, width, "__shfl_xor_sync");
}
template <class T>
inline T __shfl(T var, int src, int width = warpSize) {
  return ::xhip_emu::shfl(::xhip_emu::full_mask(), var, src, width, "__shfl");
}
template <class T>
inline T __shfl_up(T var, unsigned delta, int width = warpSize) {
  return ::xhip_emu::shfl_up(::xhip_emu::full_mask(), var, delta, width, "__shfl_up");
}
template <class T>
inline T __shfl_down(T var, unsigned delta, int width = warpSize) {
  return ::xhip_emu::shfl_down(::xhip_emu::full_mask(), var, delta, width, "__shfl_down");
}
template <class T>
inline T __shfl_xor(T var, int lane_mask, int width = warpSize) {
  return ::xhip_emu::shfl_xor(::xhip_emu::full_mask(), var, lane_mask, width, "__shfl_xor");
}
inline unsigned long long __ballot_sync(unsigned long long mask, int predicate) {
  return ::xhip_emu::vote(mask, predicate, "__ballot_sync");
}
inline int __any_sync(unsigned long long mask, int predicate) {
  return ::xhip_emu::vote(mask, predicate, "__any_sync") != 0;
}
inline int __all_sync(unsigned long long mask, int predicate) {
  ::xhip_emu::Sync& s = ::xhip_emu::warp_sync(mask, "__all_sync");
  return ::xhip_emu::vote(mask, predicate, "__all_sync") == s.group;
}
inline unsigned long long __ballot(int predicate) {
  return ::xhip_emu::vote(::xhip_emu::full_mask(), predicate, "__ballot");
}
inline int __any(int predicate) { return __ballot(predicate) != 0; }
inline int __all(int predicate) {
  return __ballot(predicate) == (::xhip_emu::full_mask() & __activemask());
}

// Atomics, with CUDA's overloads.

#define XHIP_EMU_ATOMIC(name, type, expr)                                       \
  inline type name(type* address, type val) {                                  \
    return ::xhip_emu::atomic_update(address, [val]([[maybe_unused]] type old) { return expr; }); \
  }
XHIP_EMU_ATOMIC(atomicAdd, int, old + val)
XHIP_EMU_ATOMIC(atomicAdd, unsigned int, old + val)
XHIP_EMU_ATOMIC(atomicAdd, unsigned long long, old + val)
XHIP_EMU_ATOMIC(atomicAdd, float, old + val)
XHIP_EMU_ATOMIC(atomicAdd, double, old + val)
XHIP_EMU_ATOMIC(atomicSub, int, old - val)
XHIP_EMU_ATOMIC(atomicSub, unsigned int, old - val)
XHIP_EMU_ATOMIC(atomicExch, int, val)
XHIP_EMU_ATOMIC(atomicExch, unsigned int, val)
XHIP_EMU_ATOMIC(atomicExch, unsigned long long, val)
XHIP_EMU_ATOMIC(atomicExch, float, val)
XHIP_EMU_ATOMIC(atomicMax, int, old > val ? old : val)
XHIP_EMU_ATOMIC(atomicMax, unsigned int, old > val ? old : val)
XHIP_EMU_ATOMIC(atomicMax, long long, old > val ? old : val)
XHIP_EMU_ATOMIC(atomicMax, unsigned long long, old > val ? old : val)
XHIP_EMU_ATOMIC(atomicMin, int, old < val ? old : val)
XHIP_EMU_ATOMIC(atomicMin, unsigned int, old < val ? old : val)
XHIP_EMU_ATOMIC(atomicMin, long long, old < val ? old : val)
XHIP_EMU_ATOMIC(atomicMin, unsigned long long, old < val ? old : val)
XHIP_EMU_ATOMIC(atomicAnd, int, old & val)
XHIP_EMU_ATOMIC(atomicAnd, unsigned int, old & val)
XHIP_EMU_ATOMIC(atomicAnd, unsigned long long, old & val)
XHIP_EMU_ATOMIC(atomicOr, int, old | val)
XHIP_EMU_ATOMIC(atomicOr, unsigned int, old | val)
XHIP_EMU_ATOMIC(atomicOr, unsigned long long, old | val)
XHIP_EMU_ATOMIC(atomicXor, int, old ^ val)
XHIP_EMU_ATOMIC(atomicXor, unsigned int, old ^ val)
XHIP_EMU_ATOMIC(atomicXor, unsigned long long, old ^ val)
XHIP_EMU_ATOMIC(atomicInc, unsigned int, old >= val ? 0u : old + 1)
XHIP_EMU_ATOMIC(atomicDec, unsigned int, (old == 0u || old > val) ? val : old - 1)
#undef XHIP_EMU_ATOMIC

template <class T>
inline T atomicCAS(T* address, T compare, T val) {
  static_assert(std::is_integral<T>::value, "atomicCAS takes integers");
  T old = *address;
  if (old == compare) *address = val;
  return old;
}

// Math: the C functions come from <math.h>; these are CUDA's own.

inline float __int_as_float(int x) {
  float f;
  memcpy(&f, &x, sizeof f);
  return f;
}
inline int __float_as_int(float x) {
  int i;
  memcpy(&i, &x, sizeof i);
  return i;
}
inline float __uint_as_float(unsigned int x) {
  float f;
  memcpy(&f, &x, sizeof f);
  return f;
}
inline unsigned int __float_as_uint(float x) {
  unsigned int i;
  memcpy(&i, &x, sizeof i);
  return i;
}
inline double __longlong_as_double(long long x) {
  double d;
  memcpy(&d, &x, sizeof d);
  return d;
}
inline long long __double_as_longlong(double x) {
  long long i;
  memcpy(&i, &x, sizeof i);
  return i;
}
inline float __expf(float x) { return expf(x); }
inline float __logf(float x) { return logf(x); }
inline float __sinf(float x) { return sinf(x); }
inline float __cosf(float x) { return cosf(x); }
inline float __powf(float x, float y) { return powf(x, y); }
inline float __fdividef(float x, float y) { return x / y; }
inline float __frcp_rn(float x) { return 1.0f / x; }
inline float __fsqrt_rn(float x) { return sqrtf(x); }
inline float __fmaf_rn(float x, float y, float z) { return fmaf(x, y, z); }
inline float __saturatef(float x) { return x < 0.0f ? 0.0f : x > 1.0f ? 1.0f : x; }
#if !(defined(__GLIBC__) && __GLIBC_PREREQ(2, 41))  // C23's rsqrt is in glibc 2.41+
inline float rsqrtf(float x) { return 1.0f / sqrtf(x); }
inline double rsqrt(double x) { return 1.0 / sqrt(x); }
#endif
inline int __popc(unsigned int x) { return __builtin_popcount(x); }
inline int __popcll(unsigned long long x) { return __builtin_popcountll(x); }
inline int __clz(int x) { return x == 0 ? 32 : __builtin_clz((unsigned)x); }
inline int __clzll(long long x) { return x == 0 ? 64 : __builtin_clzll((unsigned long long)x); }
inline int __ffs(int x) { return __builtin_ffs(x); }
inline int __ffsll(long long x) { return __builtin_ffsll(x); }
template <class T>
inline T __ldg(const T* address) {
  return *address;
}
inline int min(int a, int b) { return a < b ? a : b; }
inline int max(int a, int b) { return a > b ? a : b; }
inline unsigned int min(unsigned int a, unsigned int b) { return a < b ? a : b; }
inline unsigned int max(unsigned int a, unsigned int b) { return a > b ? a : b; }
inline long long min(long long a, long long b) { return a < b ? a : b; }
inline long long max(long long a, long long b) { return a > b ? a : b; }
inline unsigned long long min(unsigned long long a, unsigned long long b) {
  return a < b ? a : b;
}
inline unsigned long long max(unsigned long long a, unsigned long long b) {
  return a > b ? a : b;
}
inline float min(float a, float b) { return fminf(a, b); }
inline float max(float a, float b) { return fmaxf(a, b); }
inline double min(double a, double b) { return fmin(a, b); }
inline double max(double a, double b) { return fmax(a, b); }

// The access hooks of -fsanitize=kernel-address (outlined: build.py sets the
// call threshold to 0) and the handlers its instrumentation expects.

#define XHIP_EMU_HOOK(n)                                                                  \
  extern "C" XHIP_EMU_UNCHECKED void __asan_load##n##_noabort(uintptr_t a) {              \
    ::xhip_emu::check_access(a, n, false);                                                \
  }                                                                                       \
  extern "C" XHIP_EMU_UNCHECKED void __asan_store##n##_noabort(uintptr_t a) {             \
    ::xhip_emu::check_access(a, n, true);                                                 \
  }
XHIP_EMU_HOOK(1)
XHIP_EMU_HOOK(2)
XHIP_EMU_HOOK(4)
XHIP_EMU_HOOK(8)
XHIP_EMU_HOOK(16)
#undef XHIP_EMU_HOOK
extern "C" XHIP_EMU_UNCHECKED void __asan_loadN_noabort(uintptr_t a, size_t n) {
  ::xhip_emu::check_access(a, n, false);
}
extern "C" XHIP_EMU_UNCHECKED void __asan_storeN_noabort(uintptr_t a, size_t n) {
  ::xhip_emu::check_access(a, n, true);
}
extern "C" XHIP_EMU_UNCHECKED void __asan_handle_no_return() {}
extern "C" XHIP_EMU_UNCHECKED void __asan_before_dynamic_init(const char*) {}
extern "C" XHIP_EMU_UNCHECKED void __asan_after_dynamic_init() {}

// -fsanitize=alignment's report (UBSan's data layout): a load or store
// through a pointer not aligned to its type, which faults on a GPU.
struct XhipEmuSourceLocation {
  const char* file;
  unsigned line, column;
};
struct XhipEmuTypeDescriptor {
  unsigned short kind, info;
  char name[1];
};
struct XhipEmuTypeMismatch {
  XhipEmuSourceLocation location;
  const XhipEmuTypeDescriptor* type;
  unsigned char log_alignment;
  unsigned char check_kind;
};
extern "C" XHIP_EMU_UNCHECKED void __ubsan_handle_type_mismatch_v1(XhipEmuTypeMismatch* data,
                                                                   uintptr_t pointer) {
  static const char* const kinds[] = {"load of", "store to"};
  char text[320];
  snprintf(text, sizeof text, "misaligned %s %s at 0x%llx (needs %u-byte alignment), %s:%u",
           data->check_kind < 2 ? kinds[data->check_kind] : "use of", data->type->name,
           (unsigned long long)pointer, 1u << data->log_alignment, data->location.file,
           data->location.line);
  ::xhip_emu::memory_fault(pointer, text);
}
