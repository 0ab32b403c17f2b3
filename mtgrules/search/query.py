"""A search query, checked and cut into folded words, then written for each database.

User text never reaches MATCH / to_tsquery raw: it is cut into folded words (letters and
digits only) and each word is quoted, so ``AND``, ``OR``, ``:`` or braces are just text. The
operators a user could believe work (``"``, ``*``, ``^``, ``NEAR(``) get a QueryError instead.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Collection
from dataclasses import dataclass, field

from ..errors import QueryError
from ..text.fold import (
    fold_words,
    folds_wide,
    index_words,
    is_charwise,
    is_han,
    is_hangul,
    is_hiragana,
    spell_power_toughness,
)
from .thesaurus import Thesaurus, shipped_thesaurus

# --kind: what a reader calls rules also covers section headings and the examples under rules.
KIND_GROUPS: dict[str, tuple[str, ...]] = {
    "rules": ("rule", "heading", "example"),
    "glossary": ("glossary",),
    "commentary": ("commentary",),
}
DEFAULT_LIMIT = 20
MAX_LIMIT = 500
# Long enough to paste a rule's sentence; a 10 kB paste is a mistake, not a query.
MAX_QUERY_CHARS = 500
# Words that say something (neither stop nor asking words): a judge's question of forty words
# ("My creature's power is equal to the number of cards in all graveyards. While it's still
# in my hand, does it count ...") holds about twenty.
MAX_QUERY_WORDS = 32
# Words in nearly every clause. Dropped from a query that has other words: they rank
# nothing, and "the"* alone matches 38,000 clauses (bm25 over all of them is the slow part).
STOP_WORDS = frozenset(
    "a an and are as at be by for from in is it its of on or that the this to with "
    "au aux ce de des du en et il la le les un une que qui "
    "al con del el las lo los para por se su y".split()
    # What an apostrophe leaves of a word once folding cuts it off: the English possessive
    # and contractions (opponent's, can't, you'll, they're, I've, I'd, I'm) and the French
    # elisions (l'effet, d'un, j'ai, qu'il, n'est, s'il). Searched, "t" was a word a rule
    # had to hold ("aren't" wanted a "t"). The possessive's "s" stays searched: the rules
    # write "owner's", "creature's base power", and a question saying it so is nearer them
    # (dropping it: the 1257 English-mix queries 0.7888 -> 0.7893, 6 up and 5 down, and two
    # tests' rules lost first place to rules and entries without the possessive).
    + "t ll re ve d m l j qu n".split()
)
# Words that ask rather than say: dropped from a question's search words ("how many cards in
# a starting hand" searches cards, starting, hand), kept in its phrase. Function words only,
# in the four languages' question forms; never a game term ("work": how does ward work;
# "explain", "define": what a reader asks of a term, not words of the rules).
QUESTION_WORDS = frozenset(
    "what whats when where which who whom whose why how many much does do did done can could "
    "should would will shall may might must i me my mine you your we our us they them their "
    "there here happen happens happened if get gets got have has had been being was were "
    "not no yes any some than then so just also about into onto over work works explain "
    "define definition meaning difference differences versus vs allowed am".split()
    # The same asking verbs negated, as an apostrophe's cut leaves them (isn't: isn, t).
    + "isn aren wasn weren doesn don didn hasn haven hadn wouldn couldn shouldn".split()
    + "quoi quand comment combien pourquoi quel quelle quels quelles est-ce je j me mon ma mes "
    "tu te ton ta tes nous vous on si ne pas peut peux puis-je faut vaut".split()
    + "que qué cuando cuándo como cómo cuanto cuánto cuanta cuánta cuantos cuántos cuantas "
    "cuántas donde dónde quien quién cual cuál por porque yo me mi mis tu tú te si sí hay "
    "puedo puede vale".split()
)
# The words a citation of a rule number comes with ("what does rule 100.6 say", "explain
# CR 509.1a", "difference between 702.19b and 702.19c"): with only these and asking words
# beside them, a query asks for those rules.
CITING_WORDS = frozenset(
    "rule rules cr comprehensive see say says said mean means meaning explain text read reads "
    "number section subrule difference differences between compare vs versus".split()
    # The same in the translations' languages, folded ("que dit la règle 107.3", "was besagt
    # Regel 702.19b", "규칙 702.19b 설명"); the word "rule" itself is the termbase's. Only
    # beside a rule number: "dice" or "text" elsewhere are words to search.
    + "dit disent signifie explique explication texte numero difference entre".split()
    + "dice dicen significa explica explicacion texto numero diferencia entre".split()
    + "sagt besagt bedeutet bedeutung erklare erklarung text nummer lautet unterschied".split()
    + "cosa dice significa spiega spiegazione testo numero differenza".split()
    + "diz significa explica explicacao texto numero diferenca".split()
    + "что говорит гласит означает объясни текст номер разница".split()
    + "설명 내용 뜻 의미 무슨 차이".split()
    + "説明 意味 内容 说明 解释 意思".split()
)
# Chinese characters that ask (几 how many, 吗 yes-no, 什么 what, 怎么 how...) or only link
# (都 all, 就 then, 被 the passive, 里 in): a Han run that matches nothing as a whole is
# searched as its pieces, and a piece holding one of these says nothing about the subject.
HAN_FUNCTION_CHARS = frozenset(
    "的了吗呢吧么是有几多少什怎如何哪谁我你他她它在和与会能可要都就还也又被里呀啊"
)
# Chinese question words of two characters or more (folded to simplified script, as queries
# are): a question is cut at them before it is cut into words, so that no piece straddles
# one (可以看 gave 以看, 怎么办 gave nothing but noise). Function words only, never a term.
HAN_QUESTION_WORDS = tuple(
    sorted(
        "可以 可不可以 能不能 会不会 是不是 要不要 算不算 有没有 什么 怎么 怎么办 怎么样 怎样 "
        "如何 哪里 哪儿 哪些 为什么 多少 是否 能否 时候 的话 请问 "
        # Meaning (是什么意思: what does it mean), which the Chinese rules never print.
        "意思 "
        # Conjunctions (or, if, because, so, but, and, then): 回合或者战斗 is 回合, 战斗, not
        # 回合或 and 者战斗, pieces the index holds across two words.
        "或者 还是 如果 因为 所以 但是 而且 并且 然后".split(),
        key=len,
        reverse=True,
    )
)
# Korean words that ask or only link ("어떻게 되나요", "할 수 있나요": how, can): dropped
# like QUESTION_WORDS.
KOREAN_QUESTION_WORDS = frozenset(
    "어떻게 어떤 무엇 무엇인가요 뭔가요 언제 누가 누구 누구인가요 왜 어디 어디로 몇 수 때 것 경우 "
    "있나요 있습니까 있을까요 있는 되나요 됩니까 될까요 하나요 합니까 인가요 입니까 되면 하면 "
    "및 또는 그 이 저 제 내 나 "
    # Casual talk: this (time), right away, can't, do, what, all, become, just.
    "이번 바로 못 해 뭐 뭐가 다 돼 좀 그냥 얼마나 얼마 완전 "
    # A comparison's words (difference, differ, what is it), as "difference" and "versus"
    # are QUESTION_WORDS; 거 (thing) closes a verb said as a noun (잃는 거랑: losing).
    "차이 차이점 달라요 다른가요 다른 다르다 다른지 뭐예요 뭔지 거 거랑".split()
)
# The endings any Korean verb takes in a question, polite or casual (뒤집어요 of 뒤집다,
# where the rules say 뒤집습니다): the stem is what both hold. Like a particle, they leave a
# stem of two syllables at least: cutting 받으면 to 받 and 있어요 to 있 (a syllable inside
# hundreds of words) cost more than it found (the 311 ja/ko queries: 0.7372 with two
# syllables, 0.7345 with one).
_ANY_VERB_ENDINGS = tuple(
    "었어요 았어요 였어요 어요 아요 습니다 었습니다 았습니다 었는데요 았는데요 는데요 "
    "었는데 았는데 는데 었나요 았나요 을까요 어서 아서 어도 아도 으면 면".split()
)
# What a Korean word carries after its stem (생물이, 생물들은, 공격하는, 탭된): particles,
# the plural 들, and the endings of 하다 and 되다 verbs, longest first. The index stores Hangul
# one syllable per token, so the stem is found inside any form of the word.
KOREAN_ENDINGS = tuple(
    sorted(
        set(
            "에서는 에게서 으로는 으로도 에서 에게 한테 께서 까지 부터 보다 처럼 으로 이나 이며 이고 이란 란 이야 이에요 예요 "
            "이라는 라는 이라 들이 들을 들은 들의 들에 들도 들로 들과 이 가 은 는 을 를 의 에 로 와 "
            "과 도 만 이랑 랑 "
            "하였습니다 했습니다 합니다 하나요 하는지 하려면 하면 하는 하고 하여 해도 해야 했다 "
            "한다 하지 할 한 되었습니다 됩니다 되나요 되는 되면 되어 된다 되지 돼도 돼 될 된".split()
            + list(_ANY_VERB_ENDINGS)
        ),
        key=len,
        reverse=True,
    )
)
# The endings of 하다 and 되다 leave a one-syllable stem too (탭된: 탭); a particle does
# not (the 이 of 이하 is no particle).
_VERB_ENDING = ("하", "했", "한", "할", "해", "되", "된", "될", "돼")
# Japanese question words written in Han (何枚 how many, 誰 who): a kanji run holding one
# asks rather than names.
JAPANESE_QUESTION_CHARS = frozenset("何誰")
# A Japanese verb or adjective is written as its kanji and the kana of its ending
# (okurigana): 数える, 置かれる, 引ける. A lone kanji is in hundreds of texts (数 in every
# 枚数), so a question's kanji followed by kana is searched with the kana that start its
# ending: every form of that kana's row (the five of a godan verb's row: 置か 置き 置く 置け
# 置こ), the sound-changed forms (置い 置っ 置ん), and る-row forms for ichidan verbs (見る,
# 見れ, 見ら of 見られる). 数えられる then finds 数える of 402.3, not 枚数. Hiragana that
# opens with a particle (手の, 数を, 色が) follows a noun: the kanji is searched alone.
_KANA_ROWS = (
    "あいうえお かきくけこ がぎぐげご さしすせそ ざじずぜぞ たちつてと だぢづでど なにぬねの "
    "はひふへほ ばびぶべぼ まみむめも らりるれろ わいうえお"
).split()
_OKURIGANA_ALWAYS = "いっんらりるれろ"
JAPANESE_PARTICLE_STARTS = frozenset("のをがはへやでともに")


def okurigana_forms(kanji: str, kana: str) -> tuple[str, ...]:
    """The forms to search for a lone ``kanji`` followed in a Japanese question by the
    hiragana run ``kana`` (what follows it up to the next kanji or katakana): the kanji with
    each kana its verb or adjective may continue with, the typed one first; () when the
    word is no lone kanji, what follows it is no hiragana, or that opens with a particle
    (the kanji is a noun, searched alone)."""
    if (
        len(kanji) != 1
        or not is_han(kanji)
        or not is_hiragana(kana)
        or kana[0] in JAPANESE_PARTICLE_STARTS
    ):
        return ()
    first = kana[0]
    row = "".join(r for r in _KANA_ROWS if first in r)
    return tuple(kanji + k for k in dict.fromkeys(first + row + _OKURIGANA_ALWAYS))


# Full-text operators a user may type thinking they work; they would be searched as plain
# words (every word is quoted), which is not what was meant: say so instead. A star is the
# prefix operator only glued to a word of a spaced script ("sta*"): standing alone, or
# beside Japanese, Chinese or Korean text, it is the star of a power or toughness ("power
# is *", "P/Tが*のクリーチャー", "공방이 *인 생물", as 208.2 writes it), which has no word to
# search and is left out.
_FTS_SYNTAX = re.compile(
    r"(?<=[0-9a-z\u00c0-\u024f\u0370-\u03ff\u0400-\u04ff])\*|\^|\bNEAR\s*\(", re.I
)


def check_query(query: str) -> str:
    if not isinstance(query, str) or not query.strip():
        raise QueryError(
            "the search query is empty; give words (stack, coût, 堆叠) or a rule number (107.3g)."
        )
    if len(query) > MAX_QUERY_CHARS:
        raise QueryError(
            f"the search query is {len(query)} characters long; keep it under "
            f"{MAX_QUERY_CHARS} (a few words or a rule number such as 107.3g)."
        )
    # A power and toughness is no operator: "*/*" is the star of a characteristic-defining
    # ability (tarmogoyf's */1+*), searched as one word.
    if _FTS_SYNTAX.search(spell_power_toughness(query.lower())) or query.count('"') % 2:
        raise QueryError(
            "search takes plain words or a rule number, not full-text syntax "
            '(" * ^ NEAR( ...); e.g.: mtgrules search combat damage'
        )
    return query.strip()


def kinds_of(kind: str | None) -> tuple[str, ...] | None:
    if kind is None:
        return None
    if kind not in KIND_GROUPS:
        raise QueryError(f"unknown kind '{kind}'; use one of: {', '.join(KIND_GROUPS)}.")
    return KIND_GROUPS[kind]


def query_words_checked(query: str) -> list[str]:
    words = fold_words(query)
    if not words:
        raise QueryError(
            f"'{query[:40]}' has no letters or digits to search for; give words "
            "(stack, coût, 堆叠) or a rule number (107.3g)."
        )
    said = [w for w in words if w not in STOP_WORDS and not asks(w)]
    if len(said) > MAX_QUERY_WORDS:
        raise QueryError(
            f"the search query has {len(said)} words besides the small ones (the, of, what...); "
            f"give at most {MAX_QUERY_WORDS}."
        )
    return words


def fts_match(groups: list[list[str]]) -> str:
    """An FTS5 MATCH expression: AND of groups, OR inside a group, every word quoted.

    The words come from fold_words (letters and digits only), so no quote can appear inside;
    a Han, kana or Hangul run becomes a phrase of single characters, the way the index
    stores it."""

    def term(word: str) -> str:
        if is_charwise(word):
            return '"' + " ".join(word) + '"'
        # Prefix match for real words (stack -> stacks); short ones exact, or "a" matches all.
        return f'"{word}"*' if len(word) >= 3 else f'"{word}"'

    parts = []
    for group in groups:
        alts = [term(w) for w in group]
        parts.append(alts[0] if len(alts) == 1 else "(" + " OR ".join(alts) + ")")
    return " AND ".join(parts)


def pg_tsquery(groups: list[list[str]]) -> str:
    """The same query for PostgreSQL's to_tsquery('simple', ...)."""

    def term(word: str) -> str:
        if is_charwise(word):
            return "(" + " <-> ".join(f"'{ch}'" for ch in word) + ")"
        return f"'{word}':*" if len(word) >= 3 else f"'{word}'"

    return " & ".join("(" + " | ".join(term(w) for w in group) + ")" for group in groups)


# --- the words of a query, as terms and expressions --------------------------------------


@dataclass(frozen=True)
class Term:
    """One thing a text must contain: a folded word (a prefix, for words of three letters
    or more), a Han run (a phrase of characters), or alternatives of those (a mistyped
    word's corrections); ``lemmas``: the word's lemmas, matched exactly against the texts'
    lemmas (the index's lemma column: "sacrificed" finds "sacrifice", "left" finds "leaves")."""

    alts: tuple[str, ...]
    lemmas: tuple[str, ...] = ()

    @property
    def charwise(self) -> bool:
        """A Han, kana or Hangul run: a phrase of characters, as the index stores them."""
        return is_charwise(self.alts[0])

    def match(self) -> str:
        words = fts_match([list(self.alts)])
        if not self.lemmas:
            return words
        inner = words[1:-1] if words.startswith("(") else words
        lemmas = " OR ".join(f'lemma : "{lm}"' for lm in self.lemmas)
        return f"({inner} OR {lemmas})"

    def tsquery(self) -> str:
        words = pg_tsquery([list(self.alts)])
        if not self.lemmas:
            return words
        return "(" + words + " | " + " | ".join(f"'{lm}':C" for lm in self.lemmas) + ")"


@dataclass(frozen=True)
class Expr:
    """A full-text expression over terms: all of them, any of them, or one phrase."""

    terms: tuple[Term, ...]
    op: str = "and"  # and | or | phrase
    tokens: tuple[str, ...] = ()  # for a phrase: its index tokens in order
    lemmas: tuple[str, ...] = ()  # for a phrase: the lemmas of those tokens (or none)

    def match(self) -> str:
        if self.op == "phrase":
            words = '"' + " ".join(self.tokens) + '"'
            if self.lemmas and self.lemmas != self.tokens:
                return f'({words} OR lemma : "' + " ".join(self.lemmas) + '")'
            return words
        # Each term is a quoted word, a quoted phrase, or a parenthesised OR of them.
        return f" {self.op.upper()} ".join(t.match() for t in self.terms)

    def tsquery(self) -> str:
        if self.op == "phrase":
            words = " <-> ".join(f"'{t}'" for t in self.tokens)
            if self.lemmas and self.lemmas != self.tokens:
                lem = " <-> ".join(f"'{t}':C" for t in self.lemmas)
                return f"({words}) | ({lem})"
            return words
        sep = " & " if self.op == "and" else " | "
        return sep.join(f"({t.tsquery()})" for t in self.terms)


def index_tokens(text: str) -> list[str]:
    """The tokens the index holds for ``text`` (folded words, one per Han character)."""
    return list(index_words(text))


@dataclass
class ParsedQuery:
    """A text query cut up: what was typed, what must match, and the phrase it makes."""

    text: str
    words: list[str]  # folded words as typed (a Han run is one word)
    terms: list[Term]  # what a text must contain: the words minus stop and question words
    tokens: list[str]  # the typed words as index tokens, in order: the phrase
    lemmas: list[str] = field(default_factory=list)  # a lemma per token (empty: none known)

    @property
    def phrase(self) -> Expr | None:
        """The whole query as one phrase, when it has more than one token."""
        if len(self.tokens) < 2:
            return None
        return Expr(tuple(self.terms), "phrase", tuple(self.tokens), tuple(self.lemmas))

    def all_of(self) -> Expr:
        return Expr(tuple(self.terms), "and")

    def any_of(self) -> Expr:
        return Expr(tuple(self.terms), "or")


# The rules spell out small numbers ("ten or more poison counters", "seven cards", "fifteen
# or more" in Two-Headed Giant) and print larger ones as digits (21 combat damage, 100
# cards): a number typed as digits is searched as either. From three on: "one" and "two"
# are in every other rule ("one or more", "two or more"), and 1 and 2 are mostly the +1/+1
# of a counter or the 1 of "turn 1".
_NUMBER_NAMES = (
    "three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen "
    "seventeen eighteen nineteen twenty"
).split()
_NUMBERS = {str(n): (str(n), name) for n, name in enumerate(_NUMBER_NAMES, start=3)}
# And the other way: zero is spelled in some rules ("zero or more objects", "zero targets")
# and printed as 0 in most of those a player asks about ("has loyalty 0", "0 or less life",
# "a battle with 0 defense"): "zero" typed is searched as either.
_NUMBERS["zero"] = ("zero", "0")


def _player_word(word: str, thesaurus: Thesaurus) -> str:
    """A Korean word as the players' table knows it: without its particle or ending
    (크리쳐가, 데미지를, 항복해도: 크리쳐, 데미지, 항복), when the table has its stem."""
    if not is_hangul(word):
        return word
    stemmed = korean_stem(word)
    return stemmed if thesaurus.knows(stemmed) else word


# A star standing alone (not in a power and toughness such as */* or 1+*), and the word the
# rules call it by: 208.2 "includes a star (*)", the Korean translation's 별표(*). The
# Japanese writes the bare symbol, which has no word to search.
_LONE_STAR = re.compile(r"(?<![0-9A-Za-z/+*\-])\*(?![0-9A-Za-z/+*\-])")


def _star_as_word(query: str) -> str:
    if "*" not in query:
        return query
    if not folds_wide(query):
        return _LONE_STAR.sub(" star ", query)
    if any(is_hangul(ch) for ch in query):
        return _LONE_STAR.sub(" 별표 ", query)
    return query


def parse_query(query: str) -> ParsedQuery:
    """Cut a checked query into terms. Stop words and question words go ("the stack" is
    stack; "how many cards in a starting hand" is cards, starting, hand) unless nothing
    would be left. A star alone is the word the rules call it by ("power is *": star)."""
    query = _star_as_word(query)
    typed = query_words_checked(query)
    # Players' words in the rules' words (thesaurus.py): "ETB" is enters the battlefield.
    thesaurus = shipped_thesaurus()
    if any(folds_wide(w) for w in typed):
        thesaurus = thesaurus.with_wide
    marked = thesaurus.rewrite_marked([_player_word(w, thesaurus) for w in typed])
    # A Korean word is its stem in every use, not only as a term: "플레인즈워커가" names the
    # section 306 "플레인즈워커" as the bare word does.
    marked = [(korean_stem(w) if is_hangul(w) else w, said) for w, said in marked]
    words = [w for w, _said in marked]
    tokens = index_tokens(query) if words == typed else index_tokens(" ".join(words))
    content = [i for i, (w, _s) in enumerate(marked) if w not in STOP_WORDS and not asks(w)]
    if not content:
        content = [i for i, (w, _s) in enumerate(marked) if w not in STOP_WORDS]
        content = content or list(range(len(marked)))
    terms: list[Term] = []
    for i in content:
        w, said = marked[i]
        # What follows the word: after a lone kanji, the kana of a Japanese verb's ending.
        after = marked[i + 1][0] if i + 1 < len(marked) else ""
        # A phrase's words are the rules' own: no player's alternatives for them.
        alts = (
            (() if said else thesaurus.alternatives_of(w))
            or _NUMBERS.get(w)
            or okurigana_forms(w, after)
            or (w,)
        )
        # Korean words are stems already (above); stem leaves Hangul as it is.
        term = Term(tuple(dict.fromkeys(stem(a) for a in alts)))
        if term not in terms:
            terms.append(term)
    return ParsedQuery(query, words, terms, tokens)


def asks(word: str) -> bool:
    """A query word that asks or only links, in any language: the question words, a
    hiragana run of a Japanese question (particles and endings: の, を, られる, ですか;
    Japanese content words are written in Han and katakana), a Korean question word, a
    kanji run with a question character (何枚)."""
    return (
        word in QUESTION_WORDS
        or word in KOREAN_QUESTION_WORDS
        or is_hiragana(word)
        or (is_han(word) and bool(set(word) & JAPANESE_QUESTION_CHARS))
    )


def only_asks_or_cites(word: str) -> bool:
    """A word beside a rule number that asks for that rule rather than for other texts:
    a question or citing word in any language, or a Chinese or Japanese run made of them
    (是什么意思: 什么, 是, 意思)."""
    if word in STOP_WORDS or word in CITING_WORDS or asks(word):
        return True
    if not is_han(word):
        return False
    rest = re.sub("|".join((*HAN_QUESTION_WORDS, *_HAN_CITING_WORDS)), "", word)
    return not any(ch not in HAN_FUNCTION_CHARS for ch in rest)


_HAN_CITING_WORDS = tuple(sorted((w for w in CITING_WORDS if is_han(w)), key=len, reverse=True))


# A question whether something may be done: opening with a modal ("can a tapped creature
# block", "may I ...") or asking whether one has to, may or is able to ("do I have to reveal
# it", "am I allowed to count ...").
PERMISSION_OPENERS = frozenset({"can", "could", "may", "must"})
_ASKING_OPENERS = frozenset({"do", "does", "am", "is", "are"})
_PERMISSION_PHRASES = (("have", "to"), ("has", "to"), ("need", "to"), ("able", "to"), ("allowed",))


def asks_permission(words: list[str]) -> bool:
    """Does the question (its folded words) ask whether something may, must or can be done?"""
    if not words:
        return False
    if words[0] in PERMISSION_OPENERS:
        return True
    if words[0] not in _ASKING_OPENERS:
        return False
    return any(
        tuple(words[i : i + len(p)]) == p for p in _PERMISSION_PHRASES for i in range(len(words))
    )


# A Japanese comparison: two terms joined by と before the word that compares (違い, 違う,
# 差), with the particles and asking words between ("オーナーとコントローラーの違い",
# "インスタントとソーサリーって何が違うの", "AとBはどう違う").
_JAPANESE_COMPARISON = re.compile(
    r"^\s*(.+?)と(.+?)(?:って|では|は|の|が|で)?(?:何が|なにが|どう|どこが)?(?:違|ちが|差)"
)


def japanese_compared(text: str) -> list[str]:
    """The two terms a Japanese comparison joins, as typed; none if it compares nothing."""
    m = _JAPANESE_COMPARISON.match(text)
    return [p.strip() for p in m.groups()] if m else []


# A Korean comparison: two terms, the first closed by a particle meaning "and" (마법진이랑
# 장비, 격발 능력과 정적 능력), before a word that compares (차이, 달라요, 다른가요).
_KOREAN_JOINERS = ("이랑", "랑", "하고", "과", "와")
_KOREAN_COMPARING = ("차이", "달라", "다른", "다르")


def korean_compared(text: str) -> list[str]:
    """The two terms a Korean comparison joins, each without its particles ("격발 능력과
    정적 능력은 뭐가 달라요": 격발 능력, 정적 능력); none if it compares nothing."""
    words = text.split()
    at = next((i for i, w in enumerate(words) if w.startswith(_KOREAN_COMPARING)), None)
    if at is None:
        return []
    for i, w in enumerate(words[:at]):
        joiner = next((j for j in _KOREAN_JOINERS if w.endswith(j) and len(w) > len(j)), None)
        if joiner is None:
            continue
        first = [korean_stem(x) for x in [*words[:i], w[: -len(joiner)]]]
        second = [korean_stem(x) for x in words[i + 1 : at]]
        second = [x for x in second if x not in KOREAN_QUESTION_WORDS]
        if first and second:
            return [" ".join(first), " ".join(second)]
    return []


def korean_stem(word: str) -> str:
    """A Korean word without the particle or ending it carries (생물이 -> 생물, 공격하는 ->
    공격, 탭된 -> 탭), so that it is found in any of its forms; the word itself when no
    ending leaves a stem of two syllables (one for the endings of 하다 and 되다)."""
    for ending in KOREAN_ENDINGS:
        if word.endswith(ending) and len(word) > len(ending):
            rest = word[: -len(ending)]
            if len(rest) >= 2 or ending.startswith(_VERB_ENDING):
                return rest
    return word


def stem(word: str) -> str:
    """A word as a prefix that also finds its singular: a plural's ending cut (creatures ->
    creature, abilities -> abilit, costes -> coste), since the index matches prefixes and
    a question says "creatures" where the rule says "a creature"."""
    if is_charwise(word) or not word.isalpha():
        return word
    if len(word) > 4 and word.endswith("ies"):
        return word[:-3]
    if len(word) > 3 and word.endswith("s") and not word.endswith(("ss", "us", "is")):
        return word[:-1]
    return word


def han_pieces(run: str) -> list[str]:
    """A Han run that matches nothing whole, as overlapping two-character pieces, without
    those that only ask or link (起手牌有几张 -> 起手, 手牌); all pieces if that leaves none."""
    pieces = [run[i : i + 2] for i in range(len(run) - 1)]
    keep = [p for p in pieces if not (set(p) & HAN_FUNCTION_CHARS)]
    return keep or pieces


# The longest glossary word han_words looks for (主动牌手先决定的顺序 is ten).
MAX_HAN_WORD = 12
# The longest stretch between glossary words looked up whole in the index (双头巨人 is four).
MAX_GAP_WORD = 6


def han_subject(run: str) -> str:
    """The term a Chinese question of one subject asks about: the run without its question
    words (HAN_QUESTION_WORDS) and the characters that only link at either end of what is
    left ("横置是什么意思" -> 横置, "什么是延势" -> 延势); "" when the run holds no question
    word, or what is left is nothing or more than one part."""
    cut = re.split("|".join(HAN_QUESTION_WORDS), run)
    parts = [p.strip("".join(HAN_FUNCTION_CHARS)) for p in cut]
    parts = [p for p in parts if p]
    return parts[0] if len(cut) > 1 and len(parts) == 1 else ""


def han_words(run: str, words: Collection[str], occurs: Callable[[str], bool]) -> list[str]:
    """A Han run that matches nothing whole (a question: 衍生物的拥有者是谁), cut into the
    store's own words. First cut at the question words (HAN_QUESTION_WORDS: 可以, 什么);
    then each part gets the most characters covered by ``words`` (the glossary's Chinese
    terms, backend.han_terms), the fewest pieces on a tie. What lies between them is split
    at the characters that only ask or link (HAN_FUNCTION_CHARS) and cut into the longest
    pieces the index holds (``occurs``), a character no piece starts with kept alone.
    衍生物的拥有者是谁 -> 衍生物, 拥有者 rather than 衍生, 生物, 物的, 拥有... (pieces across
    word boundaries); 可以看自己牌库里的牌吗 -> 看, 自己, 牌库, 牌. Nothing if the run only
    asks (时会怎样)."""
    parts = [p for p in re.split("|".join(HAN_QUESTION_WORDS), run) if p]
    if len(parts) != 1 or parts[0] != run:
        out = [w for part in parts for w in han_words(part, words, occurs)]
        return list(dict.fromkeys(out))
    n = len(run)
    # best[i]: (characters covered by words, -pieces) for run[:i]; back[i]: the last piece.
    best: list[tuple[int, int]] = [(0, 0)] + [(-1, 0)] * n
    back = [0] * (n + 1)
    for i in range(1, n + 1):
        for j in range(max(0, i - MAX_HAN_WORD), i):
            piece = run[j:i]
            if i - j > 1 and piece not in words:
                continue
            covered, count = best[j]
            cand = (covered + (i - j if i - j > 1 else 0), count - 1)
            if cand > best[i]:
                best[i], back[i] = cand, j
    pieces: list[tuple[str, bool]] = []  # (text, a known word)
    i = n
    while i > 0:
        j = back[i]
        pieces.append((run[j:i], i - j > 1))
        i = j
    pieces.reverse()
    out: list[str] = []
    gap = ""
    for text, known in [*pieces, ("", True)]:
        if not known:
            gap += text
            continue
        out += _gap_words(gap, occurs)
        gap = ""
        if text and not set(text) <= HAN_FUNCTION_CHARS:
            out.append(text)
    return list(dict.fromkeys(out))


def _gap_words(gap: str, occurs: Callable[[str], bool]) -> list[str]:
    """The characters between known words, split at those that only ask or link: each
    stretch cut from the left into the longest pieces of two characters or more the index
    holds (双头巨人每队开始 -> 双头巨人, 开始, rather than 双头, 头巨, 巨人...: a piece
    across two words is noise)."""
    out: list[str] = []
    for stretch in re.split(f"[{''.join(sorted(HAN_FUNCTION_CHARS))}]+", gap):
        i = 0
        while i < len(stretch) - 1:
            for j in range(min(len(stretch), i + MAX_GAP_WORD), i + 1, -1):
                if occurs(stretch[i:j]):
                    out.append(stretch[i:j])
                    i = j
                    break
            else:
                # A character no longer piece starts with: a word of its own (看 look, 地
                # land, 输 lose), searched like the rest; the ranking leaves each word out
                # in turn, so one that names nothing costs little.
                if occurs(stretch[i]):
                    out.append(stretch[i])
                i += 1
        if i == len(stretch) - 1 and occurs(stretch[i]):
            out.append(stretch[i])
    return out
