"""Player words -> rules words, on the query side: "ETB" is searched as "enters the
battlefield", "everyone" as "player", "wear off" as "end", "deck" as deck or library.

The rules never say what players say at the table, so a question in their words finds
nothing, or the wrong rule, by its words alone. The table (mtgrules/data/player_words.tsv)
is general table-talk vocabulary, one row per phrase, never keyed on a rule or a test query.
It is apart from the termbase (termbase.py): a termbase row is one game term in each
language, read by the aligner in the texts themselves and stored; this one is one-way,
and read for queries alone. It is mostly English; a row in Hangul or Japanese script is a
Korean or Japanese player's word for what that translation calls otherwise (크리쳐 for 생물,
殴る for 攻撃), and a row marked zh a Chinese player's (拦 for 阻挡, block).

A row is either a phrase (the player's words are replaced by the rules' words: the query's
phrase and its glossary look-up use them too), or single words split by "|" (the player's
word is searched as any of them, the word itself only if listed).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cached_property, lru_cache

from ..shipped import shipped_bytes
from ..text.fold import fold_words, folds_wide, is_han

SHIPPED = "player_words.tsv"  # in mtgrules/data/


@dataclass(frozen=True)
class Thesaurus:
    """Players' phrases and the rules' words for them (mtgrules/data/player_words.tsv)."""

    phrases: dict[tuple[str, ...], tuple[str, ...]] = field(default_factory=dict)
    alternatives: dict[str, tuple[str, ...]] = field(default_factory=dict)
    # The rows in Hangul, kana or Han, parsed by ``with_wide`` on the first query holding
    # such a word: folding Han loads OpenCC's tables (~40M instructions, a fifth of a
    # search's start-up), which an English query never needs.
    wide_lines: tuple[str, ...] = ()
    # Chinese players' words (rows marked zh), each with the rules' terms it is searched as
    # (one tuple of alternatives per term): a Chinese question is one run of Han, which
    # engine._resolve_terms cuts into words, then reads these. Apart from the phrases, so
    # that a Japanese row in kanji (殴 for 攻撃) is never read in a Chinese question.
    chinese: dict[str, tuple[tuple[str, ...], ...]] = field(default_factory=dict)

    @cached_property
    def with_wide(self) -> Thesaurus:
        """This table with its rows in wide scripts too."""
        wide = parse_thesaurus("\n".join(self.wide_lines), wide=True)
        return Thesaurus(
            {**self.phrases, **wide.phrases},
            {**self.alternatives, **wide.alternatives},
            chinese=wide.chinese,
        )

    @property
    def longest(self) -> int:
        return max((len(k) for k in self.phrases), default=0)

    @cached_property
    def phrase_words(self) -> frozenset[str]:
        """Every word of the players' phrases."""
        return frozenset(w for key in self.phrases for w in key)

    def rewrite(self, words: Sequence[str]) -> list[str]:
        """The query's folded words with each player phrase replaced by the rules' words,
        longest phrase first, left to right ("comes back" before "back")."""
        return [w for w, _said in self.rewrite_marked(words)]

    def rewrite_marked(self, words: Sequence[str]) -> list[tuple[str, bool]]:
        """rewrite's words, each marked True where a phrase put it: the rules' own words,
        which take no alternatives ("attack step" is "declare attackers step", and its
        "attackers" is not searched as a player's "attack" too)."""
        out: list[tuple[str, bool]] = []
        i = 0
        for start, end in self.spans(words):
            out += [(w, False) for w in words[i:start]]
            out += [(w, True) for w in self.phrases[tuple(words[start:end])]]
            i = end
        return out + [(w, False) for w in words[i:]]

    def spans(self, words: Sequence[str]) -> list[tuple[int, int]]:
        """Where the player phrases stand among the words (start, end), as rewrite reads
        them: longest first, left to right."""
        out: list[tuple[int, int]] = []
        i, longest = 0, self.longest
        while i < len(words):
            for n in range(min(longest, len(words) - i), 0, -1):
                if tuple(words[i : i + n]) in self.phrases:
                    out.append((i, i + n))
                    i += n
                    break
            else:
                i += 1
        return out

    def knows(self, word: str) -> bool:
        """Whether ``word`` alone is a player's word of the table."""
        return (word,) in self.phrases or word in self.alternatives

    def alternatives_of(self, word: str) -> tuple[str, ...]:
        """The words a player's word is searched as (empty: the word alone)."""
        return self.alternatives.get(word, ())


def parse_thesaurus(text: str, *, wide: bool = False) -> Thesaurus:
    """The table of a TSV text; its rows in wide scripts are kept as lines for
    ``Thesaurus.with_wide`` unless ``wide`` (then they are parsed too)."""
    phrases: dict[tuple[str, ...], tuple[str, ...]] = {}
    alternatives: dict[str, tuple[str, ...]] = {}
    chinese: dict[str, tuple[tuple[str, ...], ...]] = {}
    wide_lines: list[str] = []
    for line in text.splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        player, _, rest = line.partition("\t")
        rules, _, language = rest.partition("\t")
        if not wide and folds_wide(line):
            wide_lines.append(line)
            continue
        key = tuple(fold_words(player))
        if not key or key == ("player",) and rules.strip() == "rules":
            continue  # the header row
        forms = [tuple(fold_words(f)) for f in rules.split("|")]
        forms = [f for f in forms if f]
        if language.strip() == "zh":
            if len(key) != 1 or not is_han(key[0]) or not forms:
                raise ValueError(f"{SHIPPED}: '{line}': a Chinese row is one word in Han")
            # One term of alternatives (未用|未使用), or the terms of one phrase.
            chinese[key[0]] = (
                (tuple(f[0] for f in forms),) if len(forms) > 1 else tuple((w,) for w in forms[0])
            )
            continue
        if len(forms) > 1 and len(key) == 1 and all(len(f) == 1 for f in forms):
            alternatives[key[0]] = tuple(f[0] for f in forms)
        elif len(forms) == 1:
            phrases[key] = forms[0]
        else:
            raise ValueError(f"{SHIPPED}: '{line}': alternatives are single words of one word")
    return Thesaurus(phrases, alternatives, tuple(wide_lines), chinese)


@lru_cache(maxsize=1)
def shipped_thesaurus() -> Thesaurus:
    text = shipped_bytes(SHIPPED).decode("utf-8")
    return parse_thesaurus(text)
