// Regenerates tests/reference/anchor.txt from the authors' memory-efficient AnchorHash
// (anchorhash/cpp-anchorhash, mem/AnchorHash.cpp, which includes ../misc/crc32c_sse42_u64.h):
//   g++ -O2 -msse4.2 -I<repo>/mem AnchorVectors.cpp <repo>/mem/AnchorHash.cpp -o anchor-vectors
//   ./anchor-vectors > tests/reference/anchor.txt
// Lines: "new A W" (an anchor of A buckets, W working), "remove B", "restore B" (the bucket
// UpdateNewBucket brought back), and "KEY BUCKET" = ComputeBucket(KEY, 0).
#include <cstdio>
#include <cinttypes>
#include "AnchorHash.hpp"

static const uint64_t keys[] = {0ULL, 1ULL, 42ULL, 0xDEAD10CCULL, ~0ULL, 0x0123456789abcdefULL,
                                0x8000000000000000ULL, 0x9e3779b97f4a7c15ULL, 7ULL, 1000003ULL,
                                0xfeedfacecafebeefULL, 123456789ULL};

static void print_keys(AnchorHash &h) {
  for (uint64_t k : keys) std::printf("%" PRIu64 " %" PRIu32 "\n", k, h.ComputeBucket(k, 0));
}

int main() {
  std::printf("# buckets printed by the authors' AnchorHash (mem/AnchorHash.cpp)\n");
  {
    std::printf("new 10 10\n");
    AnchorHash h(10, 10);
    print_keys(h);
  }
  std::printf("new 16 10\n");
  AnchorHash h(16, 10);
  print_keys(h);
  const uint32_t removals[] = {3, 7, 0, 9};
  for (uint32_t b : removals) {
    h.UpdateRemoval(b);
    std::printf("remove %" PRIu32 "\n", b);
    print_keys(h);
  }
  for (int i = 0; i < 3; ++i) {
    std::printf("restore %" PRIu32 "\n", h.UpdateNewBucket());
    print_keys(h);
  }
  std::printf("new 100 4\n");
  AnchorHash g(100, 4);
  print_keys(g);
  g.UpdateRemoval(1);
  std::printf("remove 1\n");
  print_keys(g);
  return 0;
}
