"""Score the translator's update report against the truth in tests/gold/update/.

Usage: python benchmarks/eval_update.py [--command drift|update] [--db STORE] [--errors]

For each golden pair (translation T made from English S, brought up to English N) it runs

  update:  mtgrules --db STORE update T --to N --format json
  drift:   mtgrules --db STORE drift --edition T --reference N --format json

and the English-to-English control, always ``drift --edition S --reference N``. The default
command is ``update`` when the installed mtgrules has it, else ``drift``. The store is --db
(or $MTGRULES_DB), else a temporary one holding the bundled corpus (ingest not timed).

Figures, per pair (targets from issue 10 in brackets):
  missing P / R   rules reported missing (kind "rule") against the truth's missing rules
                  [P >= 0.98, R >= 0.97]; labels the truth calls "uncertain" are left out
  renum named     share of the truth's renumberings (S label -> N label) the report names
                  [>= 95%]; a translation's own label counts for S's where they differ
  renum P         share of the reported renumberings that are in the truth
  glossary        glossary entries reported missing / glossary terms missing in truth
                  [within 5%]; with P / R by term where a reported entry can be named
  changed, removed  P / R, when the report has these keys (update)
Timing: each report run twice through the CLI (the first run may compute and store the
alignment, the second reads it; both include starting Python), beside two baselines run in
this process on the two English files S and N: a line diff (difflib.unified_diff) and the
truth builder's rule matcher (benchmarks/update_truth.py: difflib over the rule lists, then
reworded and moved rules). ratio = report's first run / rule matcher.
"""

from __future__ import annotations

import argparse
import difflib
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

import update_truth as truth_files
from corpus_store import corpus_store

ROOT = Path(__file__).resolve().parents[1]
GOLD = ROOT / "tests" / "gold" / "update"
TARGETS = {"missing_p": 0.98, "missing_r": 0.97, "renum": 0.95, "glossary": 0.05}


def mtgrules_exe() -> list[str]:
    beside = Path(sys.executable).with_name("mtgrules")
    if beside.exists():
        return [str(beside)]
    found = shutil.which("mtgrules")
    if found:
        return [found]
    return [sys.executable, "-c", "from mtgrules.cli import main; main()"]


def has_update_command() -> bool:
    r = subprocess.run([*mtgrules_exe(), "update", "--help"], capture_output=True, text=True)
    return r.returncode == 0


def run_report(db: str, args: list[str]) -> tuple[dict, float]:
    cmd = [*mtgrules_exe(), "--db", db, *args]
    t0 = time.perf_counter()
    r = subprocess.run(cmd, capture_output=True, text=True)
    elapsed = time.perf_counter() - t0
    if r.returncode not in (0, 1):  # 1: differences found (--exit-code style), still a report
        sys.exit(f"eval_update: {' '.join(cmd[1:])} failed ({r.returncode}): {r.stderr.strip()}")
    return json.loads(r.stdout), elapsed


def baseline_seconds(s_name: str, n_name: str) -> tuple[float, float]:
    """Two baselines over the two English files, in this process: a plain line diff
    (difflib.unified_diff, what `diff -u` gives), and the truth builder's own rule matcher
    (read both files, diff the rule lists, pair reworded and moved rules with difflib)."""
    t0 = time.perf_counter()
    a = truth_files.decode(truth_files.file_of(s_name).read_bytes()).splitlines()
    b = truth_files.decode(truth_files.file_of(n_name).read_bytes()).splitlines()
    for _ in difflib.unified_diff(a, b, lineterm=""):
        pass
    t1 = time.perf_counter()
    s, n = truth_files.read_edition(s_name), truth_files.read_edition(n_name)
    truth_files.match_rules(s.rules, n.rules)
    return t1 - t0, time.perf_counter() - t1


def pr(reported: set, truth: set, ignore: set = frozenset()) -> tuple[float, float, set, set]:
    """Precision, recall, false positives, false negatives; ``ignore`` counts for neither."""
    rep = reported - ignore
    tp = rep & truth
    p = len(tp) / len(rep) if rep else 1.0
    r = len(tp) / len(truth) if truth else 1.0
    return p, r, rep - truth, truth - reported


def _key(text: str) -> str:
    return "".join(ch for ch in truth_files.fold(text).casefold() if ch.isalnum())


@dataclass
class Score:
    pair: str
    command: str
    missing_p: float = 0.0
    missing_r: float = 0.0
    renum_named: float = 0.0
    renum_p: float = 0.0
    renum_counts: str = ""
    gloss_reported: int = 0
    gloss_truth: int = 0
    gloss_p: float | None = None
    gloss_r: float | None = None
    extra: dict = field(default_factory=dict)
    errors: dict = field(default_factory=dict)
    seconds: tuple[float, float] = (0.0, 0.0)
    baseline: tuple[float, float] = (0.0, 0.0)

    @property
    def gloss_off(self) -> float:
        return abs(self.gloss_reported - self.gloss_truth) / max(self.gloss_truth, 1)


def score(report: dict, gold: dict, *, control: bool, n_glossary: dict[str, str]) -> Score:
    pair = f"{gold['source'] if control else gold['translation']} -> {gold['target']}"
    sc = Score(pair, "drift" if control else "")
    uncertain_n = {u["label"] for u in gold["uncertain"]}
    uncertain_s = {u["label"] for u in gold["uncertain_source"]}

    # Missing rules: the control's truth is what is new in the English; the translation's adds
    # the clauses it lacks although its English had them (none in the bundled corpus).
    truth_missing = set(gold["new_rules"] if control else gold["missing_rules"])
    reported = {m["label"] for m in report["missing"] if m.get("kind") == "rule" and m["label"]}
    sc.missing_p, sc.missing_r, fp, fn = pr(reported, truth_missing, uncertain_n)
    sc.errors["missing: reported, not in truth"] = sorted(fp, key=label_key)
    sc.errors["missing: in truth, not reported"] = sorted(fn, key=label_key)

    # Renumberings: (S label, N label); a translation's own label (a mislabel) counts as S's.
    rep_pairs = {(r["from"], r["to"]) for r in report["renumbered"]}
    named, missed = 0, []
    for item in gold["renumbered"]:
        alts = {(item["from"], item["to"])}
        if not control:
            alts.add((item["t_label"], item["to"]))
        if alts & rep_pairs:
            named += 1
        else:
            missed.append(f"{item['from']} -> {item['to']}")
    total = len(gold["renumbered"])
    sc.renum_named = named / total if total else 1.0
    truth_pairs = {(r["from"], r["to"]) for r in gold["renumbered"]}
    if not control:
        truth_pairs |= {(r["t_label"], r["to"]) for r in gold["renumbered"]}
    judged = {p for p in rep_pairs if p[0] not in uncertain_s and p[1] not in uncertain_n}
    wrong = judged - truth_pairs
    sc.renum_p = 1 - len(wrong) / len(judged) if judged else 1.0
    sc.renum_counts = f"{named}/{total}"
    sc.errors["renumbered: missed"] = missed
    sc.errors["renumbered: reported, not in truth"] = sorted(f"{a} -> {b}" for a, b in wrong)

    # Glossary: count against the truth, and by term where the entry can be named (the
    # update report gives the term; drift gives only the text, looked up in N's glossary).
    gl = [m for m in report["missing"] if m.get("kind") == "glossary"]
    truth_terms = {truth_files.fold_term(t) for t in gold["glossary"]["missing"]}
    sc.gloss_reported, sc.gloss_truth = len(gl), len(truth_terms)
    terms = set()
    unnamed = 0
    for m in gl:
        term = m.get("term") or n_glossary.get(_key(m.get("text") or ""))
        if term:
            terms.add(truth_files.fold_term(term))
        else:
            unnamed += 1
    if gl:
        named_p = len(terms & truth_terms) / (len(terms) + unnamed)
        sc.gloss_p, sc.gloss_r = named_p, len(terms & truth_terms) / max(len(truth_terms), 1)
    sc.errors["glossary: reported, not new"] = sorted(terms - truth_terms)
    sc.errors["glossary: new, not reported"] = sorted(truth_terms - terms)

    # The update report's own statuses, when it has them.
    if not control and "changed" in report:
        truth_changed = {c["label"] for c in gold["changed"]}
        # Rules only: the truth is built over rules (examples and glossary entries have no label).
        rep_changed = {c["label"] for c in report["changed"] if c.get("kind", "rule") == "rule"}
        p, r, fp, fn = pr(rep_changed, truth_changed, uncertain_n)
        sc.extra["changed P/R"] = f"{p:.3f}/{r:.3f}"
        sc.errors["changed: reported, not in truth"] = sorted(fp)
        sc.errors["changed: in truth, not reported"] = sorted(fn)
    if not control and "removed" in report:
        rep_removed = {
            r["label"] if isinstance(r, dict) else r
            for r in report["removed"]
            if not isinstance(r, dict) or r.get("kind", "rule") == "rule"
        }
        p, r, fp, fn = pr(rep_removed, set(gold["removed"]), uncertain_s)
        sc.extra["removed P/R"] = f"{p:.3f}/{r:.3f}"
        sc.errors["removed: reported, not in truth"] = sorted(fp)
        sc.errors["removed: in truth, not reported"] = sorted(fn)
    if not control and "source" in report:
        src = report["source"]
        sc.extra["source"] = src.get("slug", src) if isinstance(src, dict) else src
    return sc


def label_key(label: str) -> tuple:
    head, _, tail = label.partition(".")
    digits = "".join(ch for ch in tail if ch.isdigit())
    return (int(head), int(digits or -1), tail[len(digits) :])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--command", choices=["drift", "update"], default=None)
    ap.add_argument("--db", default=None, help="store to read (default: temporary, filled)")
    ap.add_argument("--errors", action="store_true", help="list every disagreement")
    args = ap.parse_args()
    command = args.command or ("update" if has_update_command() else "drift")
    if command == "update" and not has_update_command():
        sys.exit("eval_update: this mtgrules has no 'update' command yet; use --command drift")
    golds = sorted(GOLD.glob("*__*.json"))
    if not golds:
        sys.exit("eval_update: no golden files; run python benchmarks/update_truth.py")
    with tempfile.TemporaryDirectory() as tmp:
        db = args.db or os.environ.get("MTGRULES_DB") or str(Path(tmp) / "eval.sqlite")
        with corpus_store(db):
            pass  # fills an empty store with the bundled corpus, once
        print(f"command: {command}; store: {'temporary' if not args.db else db}")
        scores: list[Score] = []
        for path in golds:
            gold = json.loads(path.read_text("utf-8"))
            t, s, n = gold["translation"], gold["source"], gold["target"]
            n_glossary = {_key(e.text): e.term for e in truth_files.read_edition(n).glossary}
            jobs = [
                (
                    False,
                    ["update", t, "--to", n, "--format", "json"]
                    if command == "update"
                    else ["drift", "--edition", t, "--reference", n, "--format", "json"],
                ),
                (True, ["drift", "--edition", s, "--reference", n, "--format", "json"]),
            ]
            base = baseline_seconds(s, n)
            for control, cli_args in jobs:
                report, first = run_report(db, cli_args)
                _, second = run_report(db, cli_args)
                sc = score(report, gold, control=control, n_glossary=n_glossary)
                sc.command = "drift" if control else command
                sc.seconds, sc.baseline = (first, second), base
                scores.append(sc)
    print_table(scores)
    if args.errors:
        for sc in scores:
            print(f"\n== {sc.pair} ({sc.command})")
            for k, v in sc.errors.items():
                if v:
                    print(f"  {k} ({len(v)}): {', '.join(v[:60])}{' ...' if len(v) > 60 else ''}")


def print_table(scores: list[Score]) -> None:
    head = (
        f"{'pair':<38} {'report':<7} {'miss P':>7} {'miss R':>7} {'renum named':>17} "
        f"{'renum P':>7} {'glossary rep/truth':>19} {'gl P/R':>11} "
        f"{'time 1st/2nd':>13} {'line diff':>9} {'rule match':>10} {'ratio':>6}"
    )
    print(head)
    print("-" * len(head))
    for sc in scores:
        gl = f"{sc.gloss_reported}/{sc.gloss_truth} ({sc.gloss_off:+.0%})".replace("+", "±")
        glpr = f"{sc.gloss_p:.2f}/{sc.gloss_r:.2f}" if sc.gloss_p is not None else "-"
        renum = f"{sc.renum_named:.1%} ({sc.renum_counts})"
        t1, t2 = sc.seconds
        print(
            f"{sc.pair:<38} {sc.command:<7} {sc.missing_p:>7.3f} {sc.missing_r:>7.3f} "
            f"{renum:>17} {sc.renum_p:>7.3f} {gl:>19} {glpr:>11} "
            f"{t1:>6.2f}/{t2:<5.2f}s {sc.baseline[0]:>8.3f}s {sc.baseline[1]:>9.2f}s "
            f"{t1 / max(sc.baseline[1], 1e-9):>5.1f}x"
        )
        if sc.extra:
            print(f"{'':<38} {'':<7} " + "; ".join(f"{k}: {v}" for k, v in sc.extra.items()))
    print(
        f"targets: missing P >= {TARGETS['missing_p']}, R >= {TARGETS['missing_r']}; "
        f"renumberings named >= {TARGETS['renum']:.0%}; glossary within "
        f"{TARGETS['glossary']:.0%} of the truth. ratio = first run / rule match."
    )


if __name__ == "__main__":
    main()
