/* test_input.c - unit tests of how input enters (util/): files are read only
 * when regular and within the size limit, never blocking on a FIFO; the
 * directory walk lists what it should in sorted order, ends on link loops and
 * says what it skipped; YAML numbers out of range are told from malformed
 * ones, duplicate keys are found in mappings of any size, and the document
 * count is bounded; text from input is escaped for the terminal. */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "escape.h"
#include "input.h"
#include "unit.h"
#include "walk.h"
#include "ydoc.h"

/* a scratch directory, removed by rm_tree */
static int scratch(char *dir, size_t size) {
  snprintf(dir, size, "/tmp/arbiter-input-XXXXXX");
  return mkdtemp(dir) ? 0 : -1;
}

static void rm_tree(const char *dir) {
  char cmd[600];
  snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
  if (system(cmd)) return;
}

static int put(const char *dir, const char *name, const char *text) {
  char path[600];
  snprintf(path, sizeof path, "%s/%s", dir, name);
  FILE *f = fopen(path, "w");
  if (!f) return -1;
  int ok = fputs(text, f) >= 0;
  return fclose(f) == 0 && ok ? 0 : -1;
}

TEST(read_refuses_fifo_without_blocking) {
  char dir[64], path[128];
  CHECK(!scratch(dir, sizeof dir));
  snprintf(path, sizeof path, "%s/f.yaml", dir);
  int made = mkfifo(path, 0600) == 0;
  char *text = NULL;
  size_t len;
  mtg_error e;
  int rc = made ? input_read(path, 0, &text, &len, &e) : 0;
  rm_tree(dir);
  CHECK(made);
  CHECK_INT(rc, MTG_EIO);
  CHECK(text == NULL);
  CHECK(strstr(e.msg, "not a regular file (a FIFO)") != NULL);
  CHECK_STR(e.file, path);
}

TEST(read_refuses_devices) {
  char *text = NULL;
  size_t len;
  mtg_error e;
  CHECK_INT(input_read("/dev/zero", 0, &text, &len, &e), MTG_EIO);
  CHECK(strstr(e.msg, "a character device") != NULL);
  CHECK_INT(input_read("/tmp", 0, &text, &len, &e), MTG_EIO);
  CHECK(strstr(e.msg, "a directory") != NULL);
  CHECK_INT(input_read("/nonexistent/x.yaml", 0, &text, &len, &e), MTG_EIO);
  CHECK(strstr(e.msg, "cannot open") != NULL);
}

TEST(read_enforces_size_limit) {
  char dir[64], path[128];
  CHECK(!scratch(dir, sizeof dir));
  int ok = put(dir, "a.yaml", "0123456789") == 0;
  snprintf(path, sizeof path, "%s/a.yaml", dir);
  char *text = NULL;
  size_t len = 0;
  mtg_error e;
  int at = ok ? input_read(path, 10, &text, &len, &e) : -1;
  int at_len = (int)len, same = text && !strcmp(text, "0123456789");
  free(text);
  text = NULL;
  int over = ok ? input_read(path, 9, &text, &len, &e) : -1;
  rm_tree(dir);
  CHECK(ok);
  CHECK_INT(at, 0);
  CHECK_INT(at_len, 10);
  CHECK(same);
  CHECK_INT(over, MTG_ELIMIT);
  CHECK(text == NULL);
  CHECK(strstr(e.msg, "larger than the input size limit of 9 bytes") != NULL);
}

TEST(parse_size_units) {
  size_t v;
  CHECK(!input_parse_size("512", &v));
  CHECK_INT(v, 512);
  CHECK(!input_parse_size("16M", &v));
  CHECK_INT(v, 16 << 20);
  CHECK(!input_parse_size("2k", &v));
  CHECK_INT(v, 2048);
  CHECK(input_parse_size("0", &v));
  CHECK(input_parse_size("-5", &v));
  CHECK(input_parse_size("12Q", &v));
  CHECK(input_parse_size("99999999999G", &v));
}

static int want_yaml(const char *name, void *ctx) {
  (void)ctx;
  return walk_has_suffix(name, ".yaml");
}

typedef struct skips {
  int n, special, seen, link;
  char last[512];
} skips;

static void note(void *ctx, const char *path, walk_skip kind, const char *why) {
  skips *s = ctx;
  s->n++;
  s->special += kind == WALK_SPECIAL;
  s->seen += kind == WALK_SEEN;
  s->link += kind == WALK_LINK;
  snprintf(s->last, sizeof s->last, "%s: %s", path, why);
}

TEST(walk_sorted_and_loop_safe) {
  char dir[64], path[160], target[160];
  CHECK(!scratch(dir, sizeof dir));
  snprintf(path, sizeof path, "%s/d", dir);
  int ok = mkdir(path, 0700) == 0 && put(dir, "d/b.yaml", "x") == 0 && put(dir, "d/a.yaml", "x") == 0 &&
           put(dir, "c.yaml", "x") == 0 && put(dir, "d/notes.txt", "x") == 0 && put(dir, ".hidden.yaml", "x") == 0;
  /* links back up the tree, to itself and sideways: each directory once */
  snprintf(path, sizeof path, "%s/d/self", dir);
  ok = ok && symlink(".", path) == 0;
  snprintf(path, sizeof path, "%s/d/up", dir);
  ok = ok && symlink("..", path) == 0;
  snprintf(path, sizeof path, "%s/d/again", dir);
  ok = ok && symlink("../d", path) == 0;
  snprintf(path, sizeof path, "%s/d/fifo.yaml", dir);
  ok = ok && mkfifo(path, 0600) == 0;
  snprintf(path, sizeof path, "%s/zero.yaml", dir);
  ok = ok && symlink("/dev/zero", path) == 0;
  walk_list l = {0};
  skips s = {0};
  walk_opts o = {.want = want_yaml, .skipped = note, .ctx = &s, .follow_links = 1};
  mtg_error e;
  int rc = ok ? walk_dir(dir, &o, &l, &e) : -1;
  char got[1024] = "";
  for (int i = 0; i < l.n; i++) {
    size_t u = strlen(got);
    snprintf(got + u, sizeof got - u, "%s%s", i ? "," : "", l.path[i] + strlen(dir));
  }
  walk_list_free(&l);
  /* without following links, the link to a directory is passed over */
  skips s2 = {0};
  walk_opts o2 = {.want = want_yaml, .skipped = note, .ctx = &s2};
  snprintf(target, sizeof target, "%s/d", dir);
  int rc2 = ok ? walk_dir(target, &o2, &l, &e) : -1;
  int n2 = l.n;
  walk_list_free(&l);
  rm_tree(dir);
  CHECK(ok);
  CHECK_INT(rc, 0);
  CHECK_STR(got, "/c.yaml,/d/a.yaml,/d/b.yaml");
  CHECK_INT(s.special, 2); /* the FIFO and the link to /dev/zero */
  CHECK_INT(s.seen, 3);    /* self, up and again */
  CHECK_INT(rc2, 0);
  CHECK_INT(n2, 2);
  CHECK_INT(s2.link, 3);
}

TEST(walk_missing_root_is_an_error) {
  walk_list l = {0};
  walk_opts o = {.want = want_yaml};
  mtg_error e;
  CHECK_INT(walk_dir("/nonexistent/dir", &o, &l, &e), MTG_EIO);
  CHECK_STR(e.file, "/nonexistent/dir");
  CHECK_INT(l.n, 0);
}

TEST(escape_control_characters) {
  char out[128];
  CHECK_INT(escape_text("Grizzly Bears", out, sizeof out), 13);
  CHECK_STR(out, "Grizzly Bears");
  escape_text("a\x1b]0;pwned\x07" "b", out, sizeof out);
  CHECK_STR(out, "a\\e]0;pwned\\x07b");
  escape_text("line\nnext\ttab\r\x7f", out, sizeof out);
  CHECK_STR(out, "line\\nnext\\ttab\\r\\x7f");
  escape_text("Lim-D\xc3\xbbl \xe2\x80\x94 ok", out, sizeof out); /* valid UTF-8 is kept */
  CHECK_STR(out, "Lim-D\xc3\xbbl \xe2\x80\x94 ok");
  escape_text("c1 \xc2\x9b" "31m", out, sizeof out); /* C1 CSI */
  CHECK_STR(out, "c1 \\u009b31m");
  escape_text("bad \xff\xc3", out, sizeof out);
  CHECK_STR(out, "bad \\xff\\xc3");
  escape_text("back\\slash \"q\"", out, sizeof out);
  CHECK_STR(out, "back\\slash \"q\"");
  CHECK_INT(escape_mem("a\0b", 3, out, sizeof out), 6);
  CHECK_STR(out, "a\\x00b");
  /* cut like snprintf, never inside an escape or a character */
  CHECK_INT(escape_text("ab\x1b", out, 4), 4);
  CHECK_STR(out, "ab");
  CHECK(!escape_needed("plain \xc3\xa9", 8));
  CHECK(escape_needed("x\x1b", 2));
}

TEST(yaml_number_out_of_range_is_said) {
  ydoc *d;
  mtg_error e;
  const char *y = "a: 2147483647\nb: 2147483648\nc: -99999999999999999999999\nd: 12x\ne: -2147483647\n";
  CHECK_OK(ydoc_parse_buffer("n.yaml", y, strlen(y), &d, &e) ? MTG_EDATA : 0, &e);
  const ynode *m = ydoc_root(d, 0);
  long v = 0;
  int a = ynode_int(d, ymap_get(m, "a"), &v, &e);
  long av = v;
  int b = ynode_int(d, ymap_get(m, "b"), &v, &e);
  char bmsg[1024];
  snprintf(bmsg, sizeof bmsg, "%s", e.msg);
  int bline = e.line;
  int c = ynode_int(d, ymap_get(m, "c"), &v, &e);
  char cmsg[1024];
  snprintf(cmsg, sizeof cmsg, "%s", e.msg);
  int dd = ynode_int(d, ymap_get(m, "d"), &v, &e);
  char dmsg[1024];
  snprintf(dmsg, sizeof dmsg, "%s", e.msg);
  int ee = ynode_int_range(d, ymap_get(m, "e"), 0, 10, &v, &e);
  char emsg[1024];
  snprintf(emsg, sizeof emsg, "%s", e.msg);
  ydoc_free(d);
  CHECK_INT(a, 0);
  CHECK_INT(av, 2147483647);
  CHECK_INT(b, -1);
  CHECK_INT(bline, 2);
  CHECK_STR(bmsg, "2147483648 is out of range (-2147483647 to 2147483647)");
  CHECK_INT(c, -1);
  CHECK(strstr(cmsg, "is out of range") != NULL);
  CHECK_INT(dd, -1);
  CHECK_STR(dmsg, "expected an integer, found '12x'");
  CHECK_INT(ee, -1);
  CHECK_STR(emsg, "-2147483647 is out of range (0 to 10)");
}

/* a mapping of 20000 keys with one repeated near the end: found, located */
TEST(duplicate_key_in_large_mapping) {
  size_t cap = 20000 * 16 + 64, u = 0;
  char *y = malloc(cap);
  CHECK(y != NULL);
  for (int i = 0; i < 20000; i++) u += (size_t)snprintf(y + u, cap - u, "k%d: %d\n", i, i);
  u += (size_t)snprintf(y + u, cap - u, "k17: again\n");
  ydoc *d;
  mtg_error e;
  int rc = ydoc_parse_buffer("big.yaml", y, u, &d, &e);
  free(y);
  CHECK_INT(rc, -1);
  CHECK_INT(e.line, 20001);
  CHECK_STR(e.msg, "duplicate key 'k17' (first given at line 18)");
  CHECK_STR(e.source, "k17: again");
}

TEST(document_count_is_bounded) {
  size_t n = YDOC_MAX_DOCS + 1;
  char *y = malloc(4 * n + 1);
  CHECK(y != NULL);
  for (size_t i = 0; i < n; i++) memcpy(y + 4 * i, "---\n", 4);
  ydoc *d;
  mtg_error e;
  int rc = ydoc_parse_buffer("many.yaml", y, 4 * (n - 1), &d, &e);
  int count = rc ? -1 : ydoc_count(d);
  if (!rc) ydoc_free(d);
  int over = ydoc_parse_buffer("many.yaml", y, 4 * n, &d, &e);
  free(y);
  CHECK_INT(rc, 0);
  CHECK_INT(count, YDOC_MAX_DOCS);
  CHECK_INT(over, -1);
  CHECK_INT(e.line, YDOC_MAX_DOCS + 1);
  CHECK(strstr(e.msg, "more than 10000 YAML documents") != NULL);
}

/* errors far down a long file show their own source line */
TEST(error_source_line_far_down) {
  size_t cap = 300000 * 8, u = 0;
  char *y = malloc(cap);
  CHECK(y != NULL);
  for (int i = 0; i < 200000; i++) u += (size_t)snprintf(y + u, cap - u, "- %d\n", i);
  u += (size_t)snprintf(y + u, cap - u, "- [unclosed\n");
  ydoc *d;
  mtg_error e;
  int rc = ydoc_parse_buffer("long.yaml", y, u, &d, &e);
  free(y);
  CHECK_INT(rc, -1);
  CHECK(e.line >= 200001);
  d = NULL;
  const char *z = "- 1\n- 2\n- 3\n";
  CHECK_INT(ydoc_parse_buffer("z.yaml", z, strlen(z), &d, &e), 0);
  char line[64];
  ydoc_source_line(d, 3, line, sizeof line);
  char l1[64], l4[64];
  ydoc_source_line(d, 1, l1, sizeof l1);
  ydoc_source_line(d, 4, l4, sizeof l4);
  ydoc_free(d);
  CHECK_STR(line, "- 3");
  CHECK_STR(l1, "- 1");
  CHECK_STR(l4, "");
}

const unit_test input_tests[] = {
    {"read_refuses_fifo_without_blocking", read_refuses_fifo_without_blocking},
    {"read_refuses_devices", read_refuses_devices},
    {"read_enforces_size_limit", read_enforces_size_limit},
    {"parse_size_units", parse_size_units},
    {"walk_sorted_and_loop_safe", walk_sorted_and_loop_safe},
    {"walk_missing_root_is_an_error", walk_missing_root_is_an_error},
    {"escape_control_characters", escape_control_characters},
    {"yaml_number_out_of_range_is_said", yaml_number_out_of_range_is_said},
    {"duplicate_key_in_large_mapping", duplicate_key_in_large_mapping},
    {"document_count_is_bounded", document_count_is_bounded},
    {"error_source_line_far_down", error_source_line_far_down},
    {NULL, NULL},
};
