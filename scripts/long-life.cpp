// A course-style host for the library's long life (scripts/long-life.sh builds and runs it):
// it dlopens the library as the course's runner does (RTLD_LOCAL | RTLD_NOW, never closed),
// calls getPoint on a new thread for every move, and mixes games against a random player,
// self-play in the one loaded instance (both sides, views swapped) and random positions,
// on random boards (M, N in 4..=12, the blocked cell anywhere). Every answer is checked
// legal by the course's rule; the host's resident memory is read every 1000 calls. Then
// THREADS threads call getPoint at once, each on its own games, answers checked the same.
//
//   long-life LIB CALLS [THREADS] [CALLS_PER_THREAD] [SEED]
//
// Prints one summary line per phase and exits 1 on any illegal or NULL answer or when the
// memory is not flat (the last third's peak above 1.25 x the first third's + 4 MiB).
#include <dlfcn.h>
#include <sys/resource.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "../tests/fixtures/course_rules.hpp"

struct Point {
    int x;
    int y;
};
using GetPoint = Point *(*)(int, int, const int *, const int *, int, int, int, int);
using ClearPoint = void (*)(Point *);

static GetPoint get_point;
static ClearPoint clear_point;
// LONG_LIFE_LEAK_ONE=1: the first answer is never given back to clearPoint, a leak the
// sanitizer run must report (its control: the host's runtime sees the library's allocations).
static bool leak_one = std::getenv("LONG_LIFE_LEAK_ONE") != nullptr;

// A game under the course's rules (course_rules.hpp's): stones 1 and 2, `top` skipping the
// blocked cell.
struct Game {
    int m, n, no_x, no_y;
    std::vector<int> board, top;
    int last_x = -1, last_y = -1, stones = 0;

    Game(int m_, int n_, int no_x_, int no_y_)
        : m(m_), n(n_), no_x(no_x_), no_y(no_y_), board(m_ * n_, 0),
          top(course::initial_top(m_, n_, no_x_, no_y_)) {}
    bool legal(int x, int y) const { return course::legal(top, n, no_x, no_y, x, y); }
    std::vector<int> columns() const {
        std::vector<int> c;
        for (int y = 0; y < n; y++)
            if (top[y] > 0) c.push_back(y);
        return c;
    }
    int cells() const { return m * n - 1; }
    // Plays column y for `who`; true when it makes four in a row.
    bool play(int y, int who) {
        int x = top[y] - 1;
        board[x * n + y] = who;
        course::landed(top, x, y, no_x, no_y);
        last_x = x, last_y = y, stones++;
        return course::makes_four(board, m, n, x, y, who);
    }
    void undo(int y, int x, int old_top, int lx, int ly) {
        board[x * n + y] = 0;
        top[y] = old_top;
        last_x = lx, last_y = ly, stones--;
    }
    // The board as `who` sees it: 2 its own stones, 1 the opponent's.
    std::vector<int> view(int who) const {
        std::vector<int> v(board.size());
        for (size_t i = 0; i < board.size(); i++)
            v[i] = board[i] == 0 ? 0 : (board[i] == who ? 2 : 1);
        return v;
    }
};

struct Tally {
    long calls = 0, bad = 0;
    double total_ms = 0, worst_ms = 0;
};

// One call of getPoint for `who` (on a new thread when `own_thread`, as the course's runner
// calls it), checked legal and played. Returns true when the move ends the game.
static bool library_move(Game &g, int who, Tally &t, bool own_thread) {
    std::vector<int> board = g.view(who);
    Point *p = nullptr;
    auto t0 = std::chrono::steady_clock::now();
    auto call = [&] {
        p = get_point(g.m, g.n, g.top.data(), board.data(), g.last_x, g.last_y, g.no_x, g.no_y);
    };
    if (own_thread) {
        std::thread(call).join();
    } else {
        call();
    }
    double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    t.calls++, t.total_ms += ms, t.worst_ms = std::max(t.worst_ms, ms);
    if (p == nullptr || !g.legal(p->x, p->y)) {
        if (t.bad++ < 5)
            std::fprintf(stderr, "long-life: %s on %dx%d no=(%d,%d) last=(%d,%d)\n",
                         p ? "illegal point" : "NULL", g.m, g.n, g.no_x, g.no_y, g.last_x, g.last_y);
        if (p) clear_point(p);
        return true;
    }
    int y = p->y;
    if (leak_one) {
        leak_one = false;
    } else {
        clear_point(p);
    }
    return g.play(y, who) || g.stones == g.cells();
}

// A random move that does not win (a position to hand to the library must be open);
// -1 when every move wins or the board is full.
static int quiet_random_move(Game &g, int who, std::mt19937_64 &rng) {
    std::vector<int> cols = g.columns();
    std::shuffle(cols.begin(), cols.end(), rng);
    for (int y : cols) {
        int x = g.top[y] - 1, old = g.top[y], lx = g.last_x, ly = g.last_y;
        bool won = g.play(y, who);
        g.undo(y, x, old, lx, ly);
        if (!won) return y;
    }
    return -1;
}

static Game random_board(std::mt19937_64 &rng) {
    std::uniform_int_distribution<int> size(4, 12);
    int m = size(rng), n = size(rng);
    return Game(m, n, std::uniform_int_distribution<int>(0, m - 1)(rng),
                std::uniform_int_distribution<int>(0, n - 1)(rng));
}

// One episode: a game against a random player, a self-play game, or one random position.
// Stops early once `budget` calls are made.
static void episode(std::mt19937_64 &rng, Tally &t, long budget, bool own_thread) {
    Game g = random_board(rng);
    int kind = std::uniform_int_distribution<int>(0, 2)(rng);
    if (kind == 2) {  // a random open position, the library to move
        int depth = std::uniform_int_distribution<int>(0, g.cells() - 1)(rng);
        int who = 1;
        for (int i = 0; i < depth; i++, who = 3 - who) {
            int y = quiet_random_move(g, who, rng);
            if (y < 0) break;
            g.play(y, who);
        }
        if (!g.columns().empty()) library_move(g, who, t, own_thread);
        return;
    }
    int ours = std::uniform_int_distribution<int>(1, 2)(rng);
    for (int who = 1; t.calls < budget; who = 3 - who) {
        bool over;
        if (kind == 1 || who == ours) {
            over = library_move(g, who, t, own_thread);
        } else {
            std::vector<int> cols = g.columns();
            int y = cols[std::uniform_int_distribution<size_t>(0, cols.size() - 1)(rng)];
            over = g.play(y, who) || g.stones == g.cells();
        }
        if (over) return;
    }
}

// This process's CPU time so far (all threads), s.
static double cpu_seconds() {
    rusage u{};
    getrusage(RUSAGE_SELF, &u);
    return u.ru_utime.tv_sec + u.ru_stime.tv_sec + (u.ru_utime.tv_usec + u.ru_stime.tv_usec) / 1e6;
}

static long resident_kb() {
    std::ifstream status("/proc/self/status");
    std::string line;
    while (std::getline(status, line))
        if (line.rfind("VmRSS:", 0) == 0) return std::atol(line.c_str() + 6);
    return -1;
}

int main(int argc, char **argv) {
    if (argc < 3) {
        std::fprintf(stderr, "usage: long-life LIB CALLS [THREADS] [CALLS_PER_THREAD] [SEED]\n");
        return 2;
    }
    long calls = std::atol(argv[2]);
    int threads = argc > 3 ? std::atoi(argv[3]) : 8;
    long per_thread = argc > 4 ? std::atol(argv[4]) : 500;
    unsigned long seed = argc > 5 ? std::strtoul(argv[5], nullptr, 10) : 1;
    void *lib = dlopen(argv[1], RTLD_LOCAL | RTLD_NOW);
    if (!lib) {
        std::fprintf(stderr, "long-life: %s\n", dlerror());
        return 2;
    }
    get_point = reinterpret_cast<GetPoint>(dlsym(lib, "getPoint"));
    clear_point = reinterpret_cast<ClearPoint>(dlsym(lib, "clearPoint"));
    if (!get_point || !clear_point) {
        std::fprintf(stderr, "long-life: getPoint or clearPoint missing\n");
        return 2;
    }
    int failed = 0;

    // One process, every call on a new thread, memory read every 1000 calls.
    std::mt19937_64 rng(seed);
    Tally t;
    std::vector<long> rss;
    long next_sample = 1000;
    auto t0 = std::chrono::steady_clock::now();
    while (t.calls < calls) {
        episode(rng, t, calls, true);
        if (t.calls >= next_sample) {
            rss.push_back(resident_kb());
            next_sample += 1000;
        }
    }
    double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    double cpu = cpu_seconds();
    rss.push_back(resident_kb());
    long peak = *std::max_element(rss.begin(), rss.end());
    size_t third = std::max<size_t>(1, rss.size() / 3);
    long head = *std::max_element(rss.begin(), rss.begin() + third);
    long tail = *std::max_element(rss.end() - third, rss.end());
    bool flat = tail <= 1.25 * head + 4096;
    std::printf("long-life: %ld calls in one process (each on a new thread) in %.0f s: %ld illegal or "
                "NULL; mean %.2f ms (CPU %.2f ms), worst %.1f ms; RSS first %.1f last %.1f peak %.1f MiB over %zu "
                "samples (last third's peak %.1f, first third's %.1f: %s)\n",
                t.calls, wall, t.bad, t.total_ms / t.calls, 1e3 * cpu / t.calls, t.worst_ms, rss.front() / 1024.0,
                rss.back() / 1024.0, peak / 1024.0, rss.size(), tail / 1024.0, head / 1024.0,
                flat ? "flat" : "GROWING");
    if (t.bad || !flat) failed = 1;

    // Threads at once, each on its own games, calling getPoint directly.
    std::vector<Tally> tallies(threads);
    std::vector<std::thread> pool;
    auto t1 = std::chrono::steady_clock::now();
    for (int i = 0; i < threads; i++)
        pool.emplace_back([&, i] {
            std::mt19937_64 own(seed * 1000003 + i);
            while (tallies[i].calls < per_thread) episode(own, tallies[i], per_thread, false);
        });
    for (auto &th : pool) th.join();
    double wall2 = std::chrono::duration<double>(std::chrono::steady_clock::now() - t1).count();
    long all = 0, bad = 0;
    double worst = 0;
    for (auto &x : tallies) all += x.calls, bad += x.bad, worst = std::max(worst, x.worst_ms);
    std::printf("long-life: %d threads at once, %ld calls in %.0f s: %ld illegal or NULL; worst %.1f ms; "
                "RSS after %.1f MiB\n",
                threads, all, wall2, bad, worst, resident_kb() / 1024.0);
    if (bad) failed = 1;
    return failed;
}
