/* test_mana.c - unit tests of the mana cost arithmetic of engine/card.c:
 * parsing a cost's symbols (107.4), writing a cost back in the same notation
 * (what prompts and the log show), its mana value (202.3), its colors
 * (202.2, 105.2) and costs added together (601.2f), and the mana an add_mana
 * step names (106.1), and the largest X a cost's other parts allow
 * (engine/cost.c). White-box: ManaCost and Cost are engine types. */
#include <string.h>

#include "internal.h"
#include "unit.h"

/* s parsed and written back: 0 and the text, or -1 */
static int formatted(const char *s, char *out, size_t n) {
  ManaCost c;
  char why[200];
  if (mana_parse(s, &c, NULL, NULL, why, sizeof why)) return -1;
  return mana_format(&c, out, n);
}

/* Each kind of symbol is written as the rules write it, X first (107.3),
 * then generic, hybrid (107.4e), Phyrexian (107.4f) and colored symbols;
 * every symbol of a kind is written as often as it appears. */
TEST(costs_are_written_back_symbol_by_symbol) {
  static const struct {
    const char *in, *out;
  } t[] = {
      {"{X}", "{X}"},
      {"{X}{R}", "{X}{R}"},
      {"{X}{X}{R}", "{X}{X}{R}"},
      {"{X}{X}{X}{2}", "{X}{X}{X}{2}"},
      {"{0}", "{0}"},
      {"{3}", "{3}"},
      {"{R}{2}", "{2}{R}"},
      {"{W}{U}{B}{R}{G}{C}", "{W}{U}{B}{R}{G}{C}"},
      {"{C}{C}", "{C}{C}"},
      {"{G/W}", "{G/W}"},
      {"{C/W}{G/C}", "{C/W}{G/C}"},
      {"{W/U}{U/B}{B/R}{R/G}", "{W/U}{U/B}{B/R}{R/G}"},
      {"{B/P}", "{B/P}"},
      {"{W/P}{U/P}{B/P}{R/P}{G/P}", "{W/P}{U/P}{B/P}{R/P}{G/P}"},
      {"{G/P}{G/P}{G/P}", "{G/P}{G/P}{G/P}"},
      {"{R}{B/P}{W/U}{1}{X}", "{X}{1}{W/U}{B/P}{R}"},
  };
  char b[128];
  for (size_t i = 0; i < sizeof t / sizeof *t; i++) {
    if (formatted(t[i].in, b, sizeof b)) {
      unit_fail(t_, __FILE__, __LINE__, "%s: not parsed or not written", t[i].in);
      return;
    }
    if (strcmp(b, t[i].out)) {
      unit_fail(t_, __FILE__, __LINE__, "%s is written \"%s\", expected \"%s\"", t[i].in, b, t[i].out);
      return;
    }
  }
  /* no mana cost at all (a land's, 202.1a) is written as nothing, a cost of
   * nothing as {0} */
  ManaCost none;
  memset(&none, 0, sizeof none);
  CHECK_INT(mana_format(&none, b, sizeof b), 0);
  CHECK_STR(b, "");
  /* a buffer too small is an error, never a cut cost */
  CHECK_INT(formatted("{X}{2}{R}", b, 9), -1);
  CHECK_INT(formatted("{X}{2}{R}", b, 10), 0);
  CHECK_STR(b, "{X}{2}{R}");
}

static int value_of(const char *s) {
  ManaCost c;
  char why[200];
  return mana_parse(s, &c, NULL, NULL, why, sizeof why) ? -1 : mana_value(&c);
}

/* 202.3: the total amount of mana in the cost; X is 0 (202.3e), each hybrid
 * and Phyrexian symbol is one (202.3f, 202.3g), {C} is one */
TEST(mana_value_counts_every_symbol) {
  CHECK_INT(value_of("{0}"), 0);
  CHECK_INT(value_of("{X}{X}{R}"), 1);
  CHECK_INT(value_of("{3}{R}{R}"), 5);
  CHECK_INT(value_of("{C}{C}"), 2);
  CHECK_INT(value_of("{W}{U}{B}{R}{G}{C}"), 6);
  CHECK_INT(value_of("{W/U}{B/R}"), 2);
  CHECK_INT(value_of("{W/P}"), 1);
  CHECK_INT(value_of("{W/P}{U/P}{B/P}{R/P}{G/P}"), 5);
  CHECK_INT(value_of("{1}{G/W}{B/P}{B/P}{G}"), 5);
}

static int colors_of(const char *s) {
  ManaCost c;
  char why[200];
  return mana_parse(s, &c, NULL, NULL, why, sizeof why) ? -1 : mana_colors(&c);
}

#define W_ (1 << COL_W)
#define U_ (1 << COL_U)
#define B_ (1 << COL_B)
#define R_ (1 << COL_R)
#define G_ (1 << COL_G)

/* 202.2, 105.2: a cost's colors are those of its colored symbols, hybrid
 * symbols giving both halves' colors and Phyrexian symbols their color;
 * generic mana, X and {C} give none */
TEST(a_costs_colors_are_its_symbols_colors) {
  CHECK_INT(colors_of("{3}"), 0);
  CHECK_INT(colors_of("{X}{C}{C}"), 0);
  CHECK_INT(colors_of("{W}"), W_);
  CHECK_INT(colors_of("{U}"), U_);
  CHECK_INT(colors_of("{B}"), B_);
  CHECK_INT(colors_of("{R}"), R_);
  CHECK_INT(colors_of("{G}"), G_);
  CHECK_INT(colors_of("{1}{W}{U}{B}{R}{G}{C}"), W_ | U_ | B_ | R_ | G_);
  CHECK_INT(colors_of("{W/P}"), W_);
  CHECK_INT(colors_of("{G/P}"), G_);
  CHECK_INT(colors_of("{U/P}{R/P}"), U_ | R_);
  CHECK_INT(colors_of("{G/W}"), G_ | W_);
  CHECK_INT(colors_of("{W/U}{B/R}"), W_ | U_ | B_ | R_);
  CHECK_INT(colors_of("{2}{U/B}{R/G}"), U_ | B_ | R_ | G_);
  /* 107.4e: a hybrid symbol with a colorless half is its colored half's color */
  CHECK_INT(colors_of("{C/W}"), W_);
  CHECK_INT(colors_of("{G/C}"), G_);
  CHECK_INT(colors_of("{C/U}{B/C}"), U_ | B_);
}

/* 601.2f: costs paid together are added symbol by symbol, n times */
TEST(costs_add_up_symbol_by_symbol) {
  ManaCost a, b;
  char why[200], out[128];
  CHECK_INT(mana_parse("{1}{R}", &a, NULL, NULL, why, sizeof why), 0);
  CHECK_INT(mana_parse("{X}{2}{G/W}{B/P}{U}{C}", &b, NULL, NULL, why, sizeof why), 0);
  mana_add(&a, &b, 2);
  CHECK_INT(mana_format(&a, out, sizeof out), 0);
  CHECK_STR(out, "{X}{X}{5}{G/W}{G/W}{B/P}{B/P}{U}{U}{R}{C}{C}");
  CHECK_INT(mana_value(&a), 14);
  CHECK_INT(mana_colors(&a), G_ | W_ | B_ | U_ | R_);
  mana_add(&a, &b, 0);
  CHECK_INT(mana_format(&a, out, sizeof out), 0);
  CHECK_STR(out, "{X}{X}{5}{G/W}{G/W}{B/P}{B/P}{U}{U}{R}{C}{C}");
  /* no cost plus a cost is that cost; a cost of nothing stays {0} */
  ManaCost z;
  memset(&z, 0, sizeof z);
  CHECK_INT(mana_parse("{W/U}{R/G}", &b, NULL, NULL, why, sizeof why), 0);
  mana_add(&z, &b, 1);
  CHECK_INT(mana_format(&z, out, sizeof out), 0);
  CHECK_STR(out, "{W/U}{R/G}");
  CHECK_INT(mana_parse("{0}", &b, NULL, NULL, why, sizeof why), 0);
  memset(&z, 0, sizeof z);
  mana_add(&z, &b, 3);
  CHECK_INT(mana_format(&z, out, sizeof out), 0);
  CHECK_STR(out, "{0}");
}

/* A cost holds at most four hybrid symbols (mana_parse refuses a fifth): a
 * sum keeps the first four and writes nothing past them, so the symbols
 * stored after the hybrid ones (Phyrexian, X) are untouched. */
TEST(costs_added_keep_at_most_four_hybrid_symbols) {
  ManaCost a, b;
  char why[200], out[128];
  CHECK_INT(mana_parse("{W/U}{U/B}{B/R}", &a, NULL, NULL, why, sizeof why), 0);
  CHECK_INT(mana_parse("{R/G}{G/W}", &b, NULL, NULL, why, sizeof why), 0);
  mana_add(&a, &b, 1);
  CHECK_INT(a.nhybrid, 4);
  CHECK_INT(mana_format(&a, out, sizeof out), 0);
  CHECK_STR(out, "{W/U}{U/B}{B/R}{R/G}");
  mana_add(&a, &b, 2);
  CHECK_INT(a.nhybrid, 4);
  for (int i = 0; i < 5; i++) CHECK_INT(a.phyrexian[i], 0);
  CHECK_INT(a.x, 0);
  CHECK_INT(mana_format(&a, out, sizeof out), 0);
  CHECK_STR(out, "{W/U}{U/B}{B/R}{R/G}");
}

/* what a malformed symbol is refused with: a symbol of 15 characters is
 * read (and is unknown), one of 16 is too long to be a symbol at all */
TEST(mana_symbols_too_long_are_refused_whole) {
  ManaCost c;
  char why[200];
  CHECK_INT(mana_parse("{ABCDEFGHIJKLMNO}", &c, NULL, NULL, why, sizeof why), -1);
  CHECK_STR(why, "unknown mana symbol {ABCDEFGHIJKLMNO}");
  CHECK_INT(mana_parse("{ABCDEFGHIJKLMNOP}", &c, NULL, NULL, why, sizeof why), -1);
  CHECK_STR(why, "bad mana symbol at '{ABCDEFGHIJKLMNOP}'");
  CHECK_INT(mana_parse("{R}{ABCDEFGHIJKLMNOPQ}", &c, NULL, NULL, why, sizeof why), -1);
  CHECK_STR(why, "bad mana symbol at '{ABCDEFGHIJKLMNOPQ}'");
  /* {T} and {Q} only where the caller takes them (an activation cost) */
  int tap = 0, untap = 0;
  CHECK_INT(mana_parse("{1}{T}", &c, &tap, &untap, why, sizeof why), 0);
  CHECK_INT(tap, 1);
  CHECK_INT(untap, 0);
  CHECK_INT(mana_parse("{Q}", &c, &tap, &untap, why, sizeof why), 0);
  CHECK_INT(untap, 1);
  CHECK_INT(mana_parse("{Q}", &c, NULL, NULL, why, sizeof why), -1);
  CHECK_STR(why, "unknown mana symbol {Q}");
  CHECK_INT(mana_parse("{X}{X}{X}{X}", &c, NULL, NULL, why, sizeof why), -1);
  CHECK_STR(why, "more than three {X} symbols");
  CHECK_INT(mana_parse("{2}{R", &c, NULL, NULL, why, sizeof why), -1);
  CHECK_STR(why, "unterminated mana symbol at '{R'");
  CHECK_INT(mana_parse("{50}{50}", &c, NULL, NULL, why, sizeof why), -1);
  CHECK_STR(why, "generic mana {50} too large (at most 99 in all)");
  CHECK_INT(mana_parse("{50}{49}", &c, NULL, NULL, why, sizeof why), 0);
  CHECK_INT(c.generic, 99);
  CHECK_INT(mana_parse("{2x}", &c, NULL, NULL, why, sizeof why), -1);
  CHECK_STR(why, "unknown mana symbol {2x}");
  /* at most 99 symbols of one color: the 100th is refused */
  char many[512] = "";
  for (int i = 0; i < 99; i++) strcat(many, "{R}");
  CHECK_INT(mana_parse(many, &c, NULL, NULL, why, sizeof why), 0);
  CHECK_INT(c.colored[COL_R], 99);
  strcat(many, "{R}");
  CHECK_INT(mana_parse(many, &c, NULL, NULL, why, sizeof why), -1);
  CHECK_STR(why, "more than 99 {R} symbols");
}

/* 106.1: the mana an add_mana step names, all of it or one of a list */
TEST(add_mana_names_symbols_or_a_choice) {
  uint8_t mask;
  int one_of;
  char why[200];
  CHECK_INT(mana_add_parse("{R}{G}", &mask, &one_of, why, sizeof why), 0);
  CHECK_INT(mask, R_ | G_);
  CHECK_INT(one_of, 0);
  CHECK_INT(mana_add_parse("{C}", &mask, &one_of, why, sizeof why), 0);
  CHECK_INT(mask, 1 << COL_C);
  CHECK_INT(one_of, 0);
  CHECK_INT(mana_add_parse("{G} or {W}", &mask, &one_of, why, sizeof why), 0);
  CHECK_INT(mask, G_ | W_);
  CHECK_INT(one_of, 1);
  CHECK_INT(mana_add_parse("{W}, {U}, or {B}", &mask, &one_of, why, sizeof why), 0);
  CHECK_INT(mask, W_ | U_ | B_);
  CHECK_INT(one_of, 1);
  CHECK_INT(mana_add_parse("{R}{X}", &mask, &one_of, why, sizeof why), -1);
  CHECK_STR(why, "expected mana symbols like \"{G}\", \"{G} or {W}\", any or chosen, found '{X}'");
  CHECK_INT(mana_add_parse("{R}{RR}", &mask, &one_of, why, sizeof why), -1);
  CHECK_STR(why, "expected mana symbols like \"{G}\", \"{G} or {W}\", any or chosen, found '{RR}'");
  CHECK_INT(mana_add_parse("red", &mask, &one_of, why, sizeof why), -1);
  CHECK_STR(why, "expected mana symbols like \"{G}\", \"{G} or {W}\", any or chosen, found 'red'");
  CHECK_INT(mana_add_parse("{G} or {C}", &mask, &one_of, why, sizeof why), -1);
  CHECK_STR(why, "a choice of mana lists colors only ({W} {U} {B} {R} {G})");
  CHECK_INT(mana_add_parse("{G} or {G}", &mask, &one_of, why, sizeof why), -1);
  CHECK_STR(why, "{G} listed twice in a choice");
  /* only the word "or", before a space or a symbol, joins a choice */
  CHECK_INT(mana_add_parse("{G} or{W}", &mask, &one_of, why, sizeof why), 0);
  CHECK_INT(mask, G_ | W_);
  CHECK_INT(one_of, 1);
  CHECK_INT(mana_add_parse("{G} on {W}", &mask, &one_of, why, sizeof why), -1);
  CHECK_STR(why, "expected mana symbols like \"{G}\", \"{G} or {W}\", any or chosen, found 'on {W}'");
  CHECK_INT(mana_add_parse("xx{G}{W}", &mask, &one_of, why, sizeof why), -1);
  CHECK_STR(why, "expected mana symbols like \"{G}\", \"{G} or {W}\", any or chosen, found 'xx{G}{W}'");
}

/* The largest X a cost with "Sacrifice X ..." or "Pay X life" allows
 * (cost_x_max) reads the cost's parts and nothing past them: the bytes after
 * the last part (here 0xff, as anything a copy or the stack leaves) are no
 * part, whether the cost has one part or all four. */
TEST(x_max_reads_only_the_parts_of_the_cost) {
  if (u_begin(t_, w, NULL)) return;
  u_card(t_, w, w->alice, MTG_Z_BATTLEFIELD, "Forest");
  if (u_start(t_, w)) return;
  G *g = w->game;
  Cost c;
  memset(&c, 0xff, sizeof c);
  c.label_for_exile = NULL;
  c.nparts = 1;
  c.part[0] = (CostPart){.kind = CK_PAY_LIFE, .n = -1};
  CHECK_INT(cost_x_max(g, w->alice, 0, &c), 20); /* "Pay X life": at most alice's 20 */
  c.part[0] = (CostPart){.kind = CK_TAP, .n = 0};
  CHECK_INT(cost_x_max(g, w->alice, 0, &c), 99); /* no X part: no bound of its own */
  c.nparts = MAX_COST_PARTS;
  for (int i = 0; i < MAX_COST_PARTS; i++) c.part[i] = (CostPart){.kind = CK_TAP, .n = 0};
  CHECK_INT(cost_x_max(g, w->alice, 0, &c), 99);
  c.part[MAX_COST_PARTS - 1] = (CostPart){.kind = CK_PAY_LIFE, .n = -1};
  CHECK_INT(cost_x_max(g, w->alice, 0, &c), 20);
}

const unit_test mana_tests[] = {
    {"costs_are_written_back_symbol_by_symbol", costs_are_written_back_symbol_by_symbol},
    {"mana_value_counts_every_symbol", mana_value_counts_every_symbol},
    {"a_costs_colors_are_its_symbols_colors", a_costs_colors_are_its_symbols_colors},
    {"costs_add_up_symbol_by_symbol", costs_add_up_symbol_by_symbol},
    {"costs_added_keep_at_most_four_hybrid_symbols", costs_added_keep_at_most_four_hybrid_symbols},
    {"mana_symbols_too_long_are_refused_whole", mana_symbols_too_long_are_refused_whole},
    {"add_mana_names_symbols_or_a_choice", add_mana_names_symbols_or_a_choice},
    {"x_max_reads_only_the_parts_of_the_cost", x_max_reads_only_the_parts_of_the_cost},
    {NULL, NULL},
};
