/* yamlparse.c - the benchmark baseline for the harness: parse each file
 * named on the command line with libyaml's event parser and do nothing else
 * (no tree, no checks, no game). The harness reading the same files cannot
 * be faster than this; docs/benchmarks.md reports the ratio. */
#include <stdio.h>
#include <yaml.h>

int main(int argc, char **argv) {
  long events = 0;
  int bad = 0;
  for (int i = 1; i < argc; i++) {
    FILE *f = fopen(argv[i], "rb");
    if (!f) {
      perror(argv[i]);
      bad = 1;
      continue;
    }
    yaml_parser_t p;
    yaml_parser_initialize(&p);
    yaml_parser_set_input_file(&p, f);
    for (;;) {
      yaml_event_t e;
      if (!yaml_parser_parse(&p, &e)) {
        fprintf(stderr, "%s: %s\n", argv[i], p.problem ? p.problem : "parse error");
        bad = 1;
        break;
      }
      int end = e.type == YAML_STREAM_END_EVENT;
      yaml_event_delete(&e);
      events++;
      if (end) break;
    }
    yaml_parser_delete(&p);
    fclose(f);
  }
  printf("%ld events\n", events);
  return bad;
}
