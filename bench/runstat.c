/* runstat.c - times a command for the benchmarks: runs it N times and
 * prints the best wall-clock time and the best CPU time (user + system, of
 * that run alone) in milliseconds, the largest peak resident memory in KiB
 * (getrusage of the child) and the last exit status:
 *   "best_ms=12.345 cpu_ms=11.900 maxrss_kib=6789 status=0"
 * CPU time varies less than wall time on a shared machine; the benchmarks
 * use it for every figure.
 * usage: runstat N COMMAND [ARG...]   (the command's output is discarded) */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static double now_ms(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec * 1e3 + (double)t.tv_nsec / 1e6;
}

static double cpu_ms(const struct rusage *r) {
  return (double)(r->ru_utime.tv_sec + r->ru_stime.tv_sec) * 1e3 +
         (double)(r->ru_utime.tv_usec + r->ru_stime.tv_usec) / 1e3;
}

int main(int argc, char **argv) {
  if (argc < 3) {
    fprintf(stderr, "usage: runstat N COMMAND [ARG...]\n");
    return 2;
  }
  int n = atoi(argv[1]), status = 0;
  double best = -1, best_cpu = -1;
  long rss = 0;
  for (int i = 0; i < n; i++) {
    double t0 = now_ms();
    struct rusage r0, r1;
    getrusage(RUSAGE_CHILDREN, &r0);
    pid_t pid = fork();
    if (pid < 0) return perror("fork"), 2;
    if (pid == 0) {
      int fd = open("/dev/null", O_WRONLY);
      if (fd >= 0) {
        dup2(fd, 1);
        dup2(fd, 2);
      }
      execvp(argv[2], argv + 2);
      _exit(127);
    }
    int st;
    if (waitpid(pid, &st, 0) < 0) return perror("waitpid"), 2;
    double dt = now_ms() - t0;
    getrusage(RUSAGE_CHILDREN, &r1);
    double cpu = cpu_ms(&r1) - cpu_ms(&r0);
    if (best < 0 || dt < best) best = dt;
    if (best_cpu < 0 || cpu < best_cpu) best_cpu = cpu;
    status = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
  }
  /* the children ran one at a time: their largest peak is the run's */
  struct rusage ru;
  if (getrusage(RUSAGE_CHILDREN, &ru) == 0) rss = ru.ru_maxrss;
  printf("best_ms=%.3f cpu_ms=%.3f maxrss_kib=%ld status=%d\n", best, best_cpu, rss, status);
  return 0;
}
