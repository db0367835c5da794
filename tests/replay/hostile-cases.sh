#!/bin/sh
# tests/replay/hostile-cases.sh - writes hostile but valid case files into
# DIR: every one must run, be recorded by bin/harness --record and check
# clean with bin/replay. Made by this script, never committed.
#   long-line.yaml  a card whose text is one line of 6,000 characters
#   flow.yaml       a whole case on one line, in YAML flow style
#   dot-ids.yaml    ids that begin with '.' ('.', '..', '.hidden')
#   quoted.yaml     a card named with '"' and '\', text needing quotes
#   long-id.yaml    an id of 240 characters (a file name of 243)
# usage: sh tests/replay/hostile-cases.sh DIR
set -eu
d=$1
mkdir -p "$d"
long=$(awk 'BEGIN { for (i = 0; i < 6000; i++) printf "%c", 97 + i % 26 }')
# a first-strike blocker kills the attacker: the phase still has its second
# combat damage step (510.4), with cards of the case's own
body() { # body ID CARD-NAME
  cat <<CASE
id: $1
rules: ["510.4"]
title: A first-striking blocker kills the only attacker
source: "Comprehensive Rules 510.4"
setup:
  active: alice
  step: beginning_of_combat
  players:
    - name: alice
      battlefield: [{card: Grizzly Bears, label: bears}]
    - name: bob
      battlefield: [{card: "$2", label: striker}]
actions:
  - {player: alice, attack: [bears -> bob]}
  - {player: bob, block: [striker -> bears]}
stop: end_of_combat
expect:
  events:
    - sequence:
        - {type: step, name: combat_damage, first_strike: 1}
        - {type: damage, src: striker, to: bears, amount: 3, combat: 1}
CASE
}
striker() { # striker NAME TEXT
  printf 'cards:\n  - name: "%s"\n    cost: "{1}{W}"\n    type: Creature — Human Soldier\n    pt: 3/1\n    keywords: [first_strike]\n    text: "%s"\n' "$1" "$2"
}
{ body hostile-long-card-line "Test Long Striker"; striker "Test Long Striker" "$long"; } >"$d/long-line.yaml"
printf '%s\n' '{id: hostile-flow-style, rules: ["510.4"], title: A first-striking blocker kills the only attacker, source: "Comprehensive Rules 510.4", cards: [{name: Test Flow Striker, cost: "{1}{W}", type: Creature — Human Soldier, pt: 3/1, keywords: [first_strike]}], setup: {active: alice, step: beginning_of_combat, players: [{name: alice, battlefield: [{card: Grizzly Bears, label: bears}]}, {name: bob, battlefield: [{card: Test Flow Striker, label: striker}]}]}, actions: [{player: alice, attack: [bears -> bob]}, {player: bob, block: [striker -> bears]}], stop: end_of_combat, expect: {events: [{sequence: [{type: step, name: combat_damage, first_strike: 1}, {type: damage, src: striker, to: bears, amount: 3, combat: 1}]}]}}' >"$d/flow.yaml"
{
  for id in . .. .hidden; do
    echo "---"
    body "$id" "Test Dot Striker"
    striker "Test Dot Striker" "First strike"
  done
} >"$d/dot-ids.yaml"
{ body hostile-quoted-name 'Test \"Quoted\" \\ Striker'; striker 'Test \"Quoted\" \\ Striker' 'Reads: a #tag, - a dash, and a colon: here'; } >"$d/quoted.yaml"
id=$(awk 'BEGIN { printf "hostile-long-id-"; for (i = 0; i < 224; i++) printf "x" }')
{ body "$id" "Test Id Striker"; striker "Test Id Striker" "First strike"; } >"$d/long-id.yaml"
