"""The descriptive phrase of a title: the abstract's own words for the name, or its contribution.

For a name: its spelled-out form, the appositive after it ("X, a hierarchical ... technique") or
the noun phrase before it ("a non-destructive collaborative KE framework, X"). Without one: the
main contribution clause ("We present the first comprehensive analysis of X" -> "Analysis of X").
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from storage.sources.titles.cues import RE_NAMING_BEFORE, RE_REFER_AS
from storage.sources.titles.fit import fit_phrase, hard_cut, tidy
from storage.sources.titles.names import Analysis
from storage.sources.titles.sentences import RE_PROMOTED_START
from storage.sources.titles.tokens import word_set
from storage.text import normalize

_RE_LEAD_HYPE = re.compile(
    r"^(?:(?:a|an|the|our)\s+)?(?:(?:first|novel|new|simple|comprehensive|"
    r"principled|straightforward|innovative|generic)(?:\s+(?:yet|but|and)\s+(?:effective|"
    r"efficient|powerful|general|flexible|scalable|elegant))?(?:,\s*|\s+)(?!and\b|or\b))*",
    re.IGNORECASE,
)
_RE_PROBLEM_OF = re.compile(
    r"^(?:the\s+)?(?:problem|question|task|challenge|issue|notion|idea|concept)\s+of\s+",
    re.IGNORECASE,
)


_RE_CONTRIB_SUBJECT = re.compile(
    r"\b(?:we|this (?:paper|work|study|article|manuscript)|the (?:present|current) "
    r"(?:paper|work|study)|our (?:work|paper|study))"
    r"\s+(?:also\s+|further\s+|then\s+|first\s+|additionally\s+|theoretically\s+|"
    r"empirically\s+|formally\s+|systematically\s+|carefully\s+|instead\s+|here\s+|now\s+|"
    r"rigorously\s+|comprehensively\s+|thoroughly\s+)?"
    r"(?P<verb>[a-z]+(?:\s+(?:on|to|up|forward|out|into|upon))?)\b",
    re.IGNORECASE,
)
_STRONG_VERBS = word_set(
    "propose proposes proposed introduce introduces introduced present presents presented develop "
    "develops developed design designs designed construct constructs constructed build builds "
    "built create creates created devise devises devised release releases curate curates "
    "establish establishes offer offers put"
)
_NOUN_VERBS = _STRONG_VERBS | word_set(
    "study studies investigate investigates explore explores analyze analyzes analyse analyses "
    "examine examines consider considers address addresses tackle tackles revisit revisits "
    "characterize characterizes characterise derive derives discuss discusses formalize "
    "formalizes provide provides identify identifies quantify quantifies evaluate evaluates "
    "benchmark benchmarks conduct conducts initiate initiates uncover uncovers focus focuses "
    "dive dives delve delves give gives take takes undertake undertakes perform performs "
    "obtain obtains pursue pursues report reports studied investigated explored analyzed "
    "analysed examined considered addressed tackled revisited characterized derived provided "
    "identified evaluated conducted"
)
_THAT_VERBS = word_set(
    "show shows demonstrate demonstrates prove proves find finds reveal reveals argue argues "
    "observe observes discover discovers hypothesize hypothesizes confirm confirms establish "
    "establishes verify verifies highlight highlights posit posits showed shown demonstrated "
    "proved found revealed observed discovered confirmed verified highlighted"
)
_SKIP_VERBS = word_set(
    "also further can will are is have has do does did were was may might should would must "
    "need needs"
)
_RE_TO_VERB = re.compile(
    r"^(?:attempts?|aims?|seeks?|tries|try|strives?|set out|wish|want|intend|propose|proposes)"
    r"\s+to\s+([a-z]+)\s+",
    re.IGNORECASE,
)
_RE_BY_VERB = re.compile(r"\bby\s+([a-z]+ing)\s+", re.IGNORECASE)
_INTRO_GERUNDS = word_set(
    "proposing introducing developing designing presenting constructing building creating devising "
    "deriving establishing providing curating formulating"
)
_RE_DEMOTED_START = re.compile(
    r"^(?:specifically|in particular|moreover|furthermore|additionally|also|finally|lastly|"
    r"besides|then|next|further|through|by|using|with|based on|experiments?|extensive|"
    r"empirical(?:ly)?|our experiments?|in addition|overall|together|as an application|"
    r"to (?:demonstrate|validate|verify|evaluate|show|support))\b",
    re.IGNORECASE,
)


_RE_WEAK_OBJECT = re.compile(
    r"^(?:(?:extensive|comprehensive|several|various|numerous|thorough)\s+)?(?:experiments|"
    r"simulations|results|evaluations|empirical|numerical|ablations?)\b",
    re.IGNORECASE,
)


_RE_THAT_LEAD = re.compile(r"^(?:that|how|whether|on|into|upon)\s+")
_RE_ALSO = re.compile(r"\b(?:also|further)\b", re.IGNORECASE)
_RE_THIS_PAPER = re.compile(r"\b(?:in this|this) (?:paper|work)\b", re.IGNORECASE)


_TO_VERB_HEADS = word_set(
    "attempt attempts aim aims seek seeks try tries strive strives set wish want intend propose "
    "proposes"
)
_ANAPHORA = word_set("this these that those it its they them their such which there here both")
_RE_FOR_FIRST_TIME = re.compile(r"\b,?\s*for the first time\b,?", re.IGNORECASE)


def _object_phrase(obj: str) -> str:
    """Tidy the object of a contribution verb into a title phrase (may come back short)."""
    obj = _RE_FOR_FIRST_TIME.sub("", obj).lstrip(" ,")
    phrase = hard_cut(obj)
    phrase = _RE_LEAD_HYPE.sub("", phrase, count=1)
    return _RE_PROBLEM_OF.sub("", phrase, count=1)


def contribution_phrase(analysis: Analysis, budget: int) -> str:
    """The main contribution clause of the abstract, tidied into a title phrase.

    Sentences with "we propose / introduce / present ..." beat "we study / analyse ...", which
    beat "we show that ..."; "In this paper" and "To address this" promote a sentence, "also",
    "Moreover" and "Finally" demote it. Objects that are anaphoric ("this observation") or too
    short to stand alone are skipped.
    """
    best: tuple[float, str] | None = None
    for idx, sent in enumerate(analysis.sentences[:40]):
        text = sent.text
        for m in _RE_CONTRIB_SUBJECT.finditer(text):
            verb = m.group("verb")
            head = verb.split()[0].casefold()
            if head in _SKIP_VERBS:
                continue
            obj = text[m.end() :].lstrip(" ,")
            keep_verb = ""
            if head in _TO_VERB_HEADS:
                to_verb = _RE_TO_VERB.match(verb + " " + obj)
                if to_verb is not None:
                    head = to_verb.group(1).casefold()
                    obj = (verb + " " + obj)[to_verb.end() :]
                    if head not in _NOUN_VERBS and head not in _THAT_VERBS:
                        keep_verb = to_verb.group(1)
            if head in _STRONG_VERBS:
                score = 3.0
            elif head in _NOUN_VERBS:
                score = 2.5
            elif head in _THAT_VERBS:
                score = 2.0
            else:
                score = 1.0
                if not keep_verb:
                    keep_verb = verb
            by_verb = _RE_BY_VERB.search(obj)
            lead_words = obj[: by_verb.start()].split() if by_verb is not None else []
            if by_verb is not None and (
                by_verb.group(1).casefold() in _INTRO_GERUNDS
                or (
                    lead_words
                    and lead_words[0].casefold() in _ANAPHORA
                    and lead_words[0].casefold() != "that"
                    and len(lead_words) <= 4
                )
            ):
                # "we address these limitations by introducing X" -> X;
                # "we tackle this by initializing GNNs with ..." -> "Initializing GNNs with ..."
                gerund = by_verb.group(1)
                obj = obj[by_verb.end() :]
                keep_verb = "" if gerund.casefold() in _INTRO_GERUNDS else gerund
                score = max(score, 3.0 if not keep_verb else 2.0)
            elif head in _THAT_VERBS or head in _NOUN_VERBS:
                obj = _RE_THAT_LEAD.sub("", obj, count=1)
            if keep_verb:
                obj = keep_verb + " " + obj
            phrase = _object_phrase(obj)
            words = phrase.split()
            if len(words) < 4 or words[0].casefold() in _ANAPHORA:
                continue
            if keep_verb and words[1].casefold() in _ANAPHORA and len(keep_verb.split()) == 1:
                continue  # "frame this as ..."
            if _RE_DEMOTED_START.search(text) or _RE_ALSO.search(text, 0, m.end()):
                score -= 1.5
            if RE_PROMOTED_START.search(text):
                score += 0.5
            if _RE_THIS_PAPER.search(text):
                score += 0.5
            if _RE_WEAK_OBJECT.search(phrase):
                score -= 2.0
            score -= idx * 0.05
            if best is None or score > best[0]:
                best = (score, phrase)
            break
    if best is None:
        for min_words in (5, 2):
            for sent in analysis.sentences:
                phrase = _object_phrase(sent.text)
                if len(phrase.split()) >= min_words:
                    best = (0.0, phrase)
                    break
            if best is not None:
                break
    if best is None:
        return tidy(analysis.text)
    return _capitalize(fit_phrase(best[1], analysis.acronyms, "", budget))


def _capitalize(phrase: str) -> str:
    if phrase and phrase.split(" ", 1)[0].islower():
        return phrase[0].upper() + phrase[1:]
    return phrase


def lower_first(phrase: str) -> str:
    first = phrase.split(" ", 1)[0]
    if first[:1].isupper() and first[1:].islower():
        return phrase[0].lower() + phrase[1:]
    return phrase


_RE_APPOS_TEXT = re.compile(
    r"^[\"”'’]?\s*(?:,|:|—|–|\s-)\s*(?:which is\s+|that is\s+|as\s+|i\.e\.,?\s+)?"
    r"((?:a|an|the|one|our)\s.*)$",
    re.IGNORECASE,
)
_RE_COLON_TEXT = re.compile(r"^\s*(?::|—|–|\s-)\s*([A-Z].*)$")
_RE_IS_A_TEXT = re.compile(r"^\s+(?:is|as)\s+((?:a|an)\s.*)$")
_RE_DESCRIPTOR = re.compile(
    r"\b(?:a|an|the|our)\s+([^,;:()]{2,90}?)\s*,?\s*(?:(?:called|named|dubbed|termed|coined|"
    r"denoted|codenamed|which we (?:call|term|name|dub)|that we (?:call|term|name|dub)|namely)"
    r"(?:\s+as)?\s*)?[\"“'‘]?$",
    re.IGNORECASE,
)
_RE_CONTINUATION = re.compile(
    r"^\s*,?\s*((?:for|to|in|on|with|based on|capable of|that|which|designed|tailored|built)\s.*)$"
)
_RE_PREP_CONTINUATION = re.compile(r"^(?:for|to|in|on|with|based on|capable of)\s")
_GENERIC_HEADS = word_set(
    "method approach framework technique model algorithm system pipeline strategy scheme tool "
    "solution module architecture"
)


def name_aliases(name: str, acronyms: dict[str, str]) -> list[str]:
    """The name and its acronym or spelled-out form, longest first."""
    aliases = {name}
    for acr, long_form in acronyms.items():
        if acr.casefold() == name.casefold():
            aliases.add(long_form)
        elif long_form.casefold() == name.casefold():
            aliases.add(acr)
    return sorted(aliases, key=len, reverse=True)


def strip_name(phrase: str, names: Sequence[str]) -> str:
    """Drop the name itself from either end of its description ("..., Drama" -> "...")."""
    for name in names:
        if not phrase or not name:
            break
        key = name.casefold()
        low = phrase.casefold()
        if low.startswith(key) and not phrase[len(name) : len(name) + 1].isalnum():
            phrase = tidy(phrase[len(name) :].lstrip(" ,:;—–-'’s"))
        elif low.startswith("the " + key) and not phrase[len(name) + 4 : len(name) + 5].isalnum():
            phrase = tidy(phrase[len(name) + 4 :].lstrip(" ,:;—–-"))
        low = phrase.casefold()
        if low.endswith(key) and (len(phrase) == len(name) or not phrase[-len(name) - 1].isalnum()):
            phrase = phrase[: -len(name)].rstrip(' ,:;—–-("“')
    return _gerund_start(phrase)


_RE_TO_START = re.compile(r"^(?:in order )?to ([a-z]+)\b")


def _gerund(verb: str) -> str:
    """unlock -> unlocking, improve -> improving, plan -> planning (a light heuristic)."""
    if verb.endswith("ie"):
        return verb[:-2] + "ying"
    if verb.endswith("e") and not verb.endswith(("ee", "ye", "oe")) and len(verb) > 2:
        return verb[:-1] + "ing"
    if (
        3 <= len(verb) <= 4
        and verb[-1] not in "aeiouwxy"
        and verb[-2] in "aeiou"
        and verb[-3] not in "aeiou"
    ):
        return verb + verb[-1] + "ing"
    return verb + "ing"


def _gerund_start(phrase: str) -> str:
    """A description that starts "to unlock ..." reads better as "unlocking ..."."""
    m = _RE_TO_START.match(phrase)
    if m is None:
        return phrase
    return _gerund(m.group(1)) + phrase[m.end() :]


def name_phrase(analysis: Analysis, budget: int) -> str:
    """The abstract's own description of the introduced name, tidied (may be "").

    In order of preference: the spelled-out form ("HELMET (How to Evaluate ...)", "Long Form
    (ACR)"), with an appositive after it; the appositive ("X, a hierarchical ... technique");
    the noun phrase before it ("a non-destructive collaborative KE framework, X", "a method,
    called X, for building ...").
    """
    occ = analysis.occurrence
    if occ is None:
        return ""
    sent = analysis.sentences[occ.sentence].text
    pre = sent[: occ.ctx_start]
    post = sent[occ.ctx_end :]
    if post.startswith((" (", "(")):
        close = post.find(")", 0, 160)
        if close > 0:
            post = post[close + 1 :]  # "Integrative Decoding (ID), to ..."
    expansion = occ.expansion.strip()
    if expansion and normalize.key(expansion) == normalize.key(analysis.name):
        expansion = ""
    appositive = ""
    m = _RE_APPOS_TEXT.match(post) or _RE_COLON_TEXT.match(post) or _RE_IS_A_TEXT.match(post)
    if m is not None:
        appositive = hard_cut(m.group(1))
    descriptor = ""
    refer = RE_REFER_AS.search(pre[-140:])
    if refer is not None:
        descriptor = refer.group(1)
    else:
        d = _RE_DESCRIPTOR.search(pre[-140:])
        if d is not None and (
            pre.rstrip(" \"“'‘").endswith(",") or RE_NAMING_BEFORE.search(pre[-48:])
        ):
            descriptor = d.group(1)
    continuation = ""
    c = _RE_CONTINUATION.match(post)
    if c is not None:
        continuation = hard_cut(c.group(1))
    phrase = ""
    if expansion:
        phrase = expansion
        if appositive:
            phrase += ", " + appositive
        elif continuation and _RE_PREP_CONTINUATION.match(continuation):
            phrase += " " + continuation
    elif appositive and (not descriptor or len(appositive.split()) >= 3):
        phrase = _RE_LEAD_HYPE.sub("", appositive, count=1)
        if len(phrase.split()) < 2:
            phrase = appositive
    elif descriptor:
        phrase = _RE_LEAD_HYPE.sub("", descriptor, count=1) or descriptor
        if continuation:
            phrase += " " + continuation
    elif continuation.startswith("for "):
        phrase = continuation
    aliases = [analysis.name] if expansion else name_aliases(analysis.name, analysis.acronyms)
    phrase = fit_phrase(strip_name(phrase, aliases), analysis.acronyms, analysis.name, budget)
    words = phrase.split()
    if len(words) < 2 and not (words and words[0].casefold() not in _GENERIC_HEADS):
        return ""
    return phrase
