# zsh -f capture.zsh SCRIPT LINE: prints each match zsh's completion offers after LINE (typed
# into an interactive zsh on a pseudo-terminal, then TAB), one a line. Run by
# tests/it/completion_shells.rs.
zmodload zsh/zpty || exit 2
zpty z zsh -f -i
# Each match compadd adds is printed between << and >>, and <<done>> after the completion
# (written as <""< so that the terminal's echo of these lines does not match).
zpty -w z "PROMPT=''; autoload -U compinit; compinit -u -D; source ${(q)1}"
zpty -w z 'compadd () { if [[ ${@[1,(i)(-|--)]} == *-(O|A|D)\ * ]]; then builtin compadd "$@"; return; fi; local -a h; builtin compadd -A h "$@"; local x; for x in $h; do print -r -- "<""<$x>>"; done }'
zpty -w z 'done_line () { print -r -- "<""<done>>" }; comppostfuncs=( done_line )'
zpty -w z "bindkey '^I' complete-word; print -r -- '<''<ready>>'"
zpty -r z out '*<<ready>>*'
zpty -w -n z "$2"$'\t'
zpty -r z out '*<<done>>*'
zpty -d z
print -r -- $out | grep -ao '<<[^<>]*>>' | grep -v '^<<done>>$' | sed 's/^<<//; s/>>$//'
