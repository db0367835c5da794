# completions/arbiter.bash - bash completion for arbiter-harness, arbiter-replay
# and arbiter-selfplay (installed once per program under
# share/bash-completion/completions, where bash-completion finds it by name).

_arbiter_harness() {
  local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]}
  case $prev in
    --format) COMPREPLY=($(compgen -W "text tap tap14 junit junit-strict json html markdown" -- "$cur")); return ;;
    --output|-o|--known-failures) COMPREPLY=($(compgen -f -- "$cur")); return ;;
    --record|--cards) COMPREPLY=($(compgen -d -- "$cur")); return ;;
    --rule|--id|-j) return ;;
  esac
  if [[ $cur == -* ]]; then
    COMPREPLY=($(compgen -W "--rule --id --list --format --output --quiet --coverage --known-failures
      --update-known-failures -j --record --verbose --run-todo --fail-fast --warnings --strict --cards
      --check-rules-index --help --version" -- "$cur"))
  else
    COMPREPLY=($(compgen -f -X '!*.y*ml' -- "$cur") $(compgen -d -- "$cur"))
  fi
}

_arbiter_replay() {
  local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]}
  if ((COMP_CWORD == 1)); then
    COMPREPLY=($(compgen -W "check rerecord impact dump diff --help --version" -- "$cur"))
    return
  fi
  case $prev in
    --format) COMPREPLY=($(compgen -W "text json" -- "$cur")); return ;;
    --cards|--rules-from) COMPREPLY=($(compgen -d -- "$cur")); return ;;
    -j|--shard) return ;;
  esac
  if [[ $cur == -* ]]; then
    case ${COMP_WORDS[1]} in
      check|rerecord) COMPREPLY=($(compgen -W "-j --format --shard --cards" -- "$cur")) ;;
      impact) COMPREPLY=($(compgen -W "-j --format --shard --cards --rules-from" -- "$cur")) ;;
      diff) COMPREPLY=($(compgen -W "--format" -- "$cur")) ;;
    esac
  else
    COMPREPLY=($(compgen -f -- "$cur"))
  fi
}

_arbiter_selfplay() {
  local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]}
  case $prev in
    --out|--cards) COMPREPLY=($(compgen -d -- "$cur")); return ;;
    --deck) COMPREPLY=($(compgen -f -X '!*.y*ml' -- "$cur") $(compgen -d -- "$cur")); return ;;
    --games|--seed|-j|--max-turns|--max-decisions|--first|--format-version) return ;;
  esac
  COMPREPLY=($(compgen -W "--games --seed --out --deck -j --max-turns --max-decisions --check --first --cards --format-version
    --help --version" -- "$cur"))
}

complete -o filenames -F _arbiter_harness arbiter-harness
complete -o filenames -F _arbiter_replay arbiter-replay
complete -o filenames -F _arbiter_selfplay arbiter-selfplay
