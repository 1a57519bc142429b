"""Derive a short title for a paper that only comes with an abstract.

A plain-text paper list gives abstracts without titles. The app still needs something short to
show in the paper list, so this module reads the abstract and builds one:

* when the abstract introduces a named method, benchmark, dataset or model ("we propose
  ParaSolver, a hierarchical parallel sampling technique that ..."), the title is that name
  followed by the phrase the abstract itself uses to describe it (``ParaSolver: hierarchical
  parallel sampling technique``, ``HELMET: How to Evaluate Long-context Models Effectively and
  Thoroughly``, ``CollabEdit: non-destructive collaborative knowledge editing framework``);
* otherwise it is the main contribution clause ("We present the first comprehensive finite-time
  global convergence analysis of ..." -> ``Finite-time global convergence analysis of ...``).

Titles never exceed :data:`MAX_TITLE_LENGTH` characters and are never empty for a non-blank
abstract. LaTeX, Markdown and URLs are stripped. Everything is plain ``re`` work: no regular
expression here can backtrack catastrophically, and very long inputs are cut to their first
:data:`MAX_SCAN_CHARS` characters before any analysis.

The paper's GitHub repositories are a strong hint: when a candidate name equals a repository name
(ignoring case, ``-`` and ``_``), it is taken as the name and written with the repository's casing
(the abstract says ``COLLABEDIT``, the repository is ``CollabEdit``).
"""

from __future__ import annotations

import functools
import html
import re
import unicodedata
from collections.abc import Callable, Sequence
from dataclasses import dataclass

__all__ = [
    "MAX_TITLE_LENGTH",
    "DerivedTitle",
    "clean_text",
    "derive_title",
    "find_introduced_name",
]

MAX_TITLE_LENGTH = 100
"""Hard upper bound on the length of a derived title, in characters."""

MAX_SCAN_CHARS = 20_000
"""Only this many leading characters of an abstract are analysed (real ones are < 3,000)."""

_MAX_SENTENCE_CHARS = 1_500  # longer "sentences" (no punctuation for pages) are chunked
_MIN_NAME_SCORE = 3.0  # evidence needed for a name (see _cue_score and _pick)
_STRONG_CUE = 6.0  # evidence needed for field vocabulary (Adam, GPT-4, LLMs) to be a name
_ELLIPSIS = "…"


def _words(text: str) -> frozenset[str]:
    """A word list written as one string."""
    return frozenset(text.split())


@dataclass(frozen=True, slots=True)
class DerivedTitle:
    """A title derived from an abstract.

    ``title`` is what the app shows (at most :data:`MAX_TITLE_LENGTH` characters, never empty for
    a non-blank abstract); ``name`` is the method / benchmark / dataset / model name the paper
    introduces, or ``""`` when it introduces none.
    """

    title: str
    name: str


# --------------------------------------------------------------------------------------------
# Cleaning: LaTeX, Markdown, URLs, entities -> plain text on one line.
# --------------------------------------------------------------------------------------------

_LATEX_SYMBOLS = {
    "alpha": "α",
    "beta": "β",
    "gamma": "γ",
    "delta": "δ",
    "epsilon": "ε",
    "varepsilon": "ε",
    "zeta": "ζ",
    "eta": "η",
    "theta": "θ",
    "kappa": "κ",
    "lambda": "λ",
    "mu": "μ",
    "nu": "ν",
    "xi": "ξ",
    "pi": "π",
    "rho": "ρ",
    "sigma": "σ",
    "tau": "τ",
    "phi": "φ",
    "varphi": "φ",
    "chi": "χ",
    "psi": "ψ",
    "omega": "ω",
    "Gamma": "Γ",
    "Delta": "Δ",
    "Theta": "Θ",
    "Lambda": "Λ",
    "Sigma": "Σ",
    "Phi": "Φ",
    "Psi": "Ψ",
    "Omega": "Ω",
    "ell": "ℓ",
    "infty": "∞",
    "times": "×",
    "cdot": "·",
    "leq": "≤",
    "le": "≤",
    "geq": "≥",
    "ge": "≥",
    "neq": "≠",
    "approx": "≈",
    "sim": "~",
    "pm": "±",
    "to": "→",
    "rightarrow": "→",
    "in": "∈",
    "sqrt": "√",
    "log": " log ",
    "exp": " exp ",
    "min": " min ",
    "max": " max ",
    "sum": "Σ",
}
_LATEX_ESCAPES = {"%": "%", "&": "&", "_": "_", "#": "#", "$": "$", "{": "", "}": "", " ": " "}
_ABBREV_MACROS = {"ie": "i.e.", "eg": "e.g.", "etal": "et al.", "etc": "etc.", "vs": "vs."}

_RE_MD_LINK = re.compile(r"\[([^\[\]\n]{0,300})\]\(\s*[^()\s]{1,500}\s*\)")
_RE_AUTOLINK = re.compile(r"<(?:https?|ftp)://[^<>\s]{1,500}>")
_RE_URL_CMD = re.compile(r"\\(?:url|href)\{[^{}]{0,500}\}(?:\{([^{}]{0,300})\})?")
_RE_URL = re.compile(r"(?:https?://|ftp://|www\.)[^\s<>\"'\]]{1,500}")
_RE_GITHUB_IO = re.compile(r"(?<![\w-])[\w-]{1,60}\.github\.io\S{0,300}")
_RE_GITHUB_BARE = re.compile(r"\bgithub\.com/\S{1,300}", re.IGNORECASE)
_RE_MATH = re.compile(r"\$\$?([^$]{0,400})\$\$?")
_RE_CMD_ARG = re.compile(r"\\[A-Za-z]+\*?\s*\{([^{}]{0,400})\}")
_RE_CMD_BARE = re.compile(r"\\([A-Za-z]+)\b\s?")
_RE_CMD_SYMBOL = re.compile(r"\\([%&_#${} ])")
_RE_SUBSUP = re.compile(r"[_^](?=[\w{(])")
_RE_MD_EMPH = re.compile(r"(\*{1,3}|_{2,3})(?=\S)([^*\n]{1,200}?)(?<=\S)\1")
_RE_MD_UNDERSCORE = re.compile(r"(?<![\w\\])_([^\W_][^_]{0,100}?)_(?!\w)")
_RE_TEX_QUOTES = re.compile(r"``|''")
_RE_DASHES = re.compile(r"(?<!-)-{2,3}(?!-)")
_RE_SOFT_HYPHEN = re.compile(r"(?<=[a-z])- (?=[a-z]{2,})(?!(?:and|or|to|vs)\b)")
_RE_SPACE = re.compile(r"\s+")
_RE_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f]")  # Unicode category Cc
_RE_SPACE_BEFORE_PUNCT = re.compile(r" ([,.;:!?)\]])")
_RE_SPACE_AFTER_OPEN = re.compile(r"([(\[])\s+")
_RE_EMPTY_PARENS = re.compile(r"\(\s*[,;:]?\s*\)|\[\s*\]")


def _latex_bare(match: re.Match[str]) -> str:
    name = match.group(1)
    if name in _LATEX_SYMBOLS:
        return _LATEX_SYMBOLS[name]
    if name in _ABBREV_MACROS:
        return _ABBREV_MACROS[name] + " "
    return ""


def _math(match: re.Match[str]) -> str:
    inner = match.group(1)
    inner = _RE_CMD_ARG.sub(r"\1", inner)
    inner = _RE_CMD_BARE.sub(_latex_bare, inner)
    inner = _RE_SUBSUP.sub("", inner)
    return inner.replace("{", "").replace("}", "").replace("\\", "")


def _emphasis(match: re.Match[str], group: int) -> str:
    """Unwrap emphasis; letters highlighted inside a word ("sp**E**culative") lose their case."""
    inner = match.group(group)
    start = match.start()
    if len(inner) <= 3 and inner.isalpha() and start > 0 and match.string[start - 1].isalpha():
        return inner.lower()
    return inner


def clean_text(text: str) -> str:
    """Turn an abstract into plain single-line text: no LaTeX, Markdown, HTML entities or URLs.

    This is a deliberately small cleaner for title derivation (not the display form of an
    abstract); it keeps the words and drops the markup. Each substitution only runs when the text
    contains its trigger character, which keeps the common case fast.
    """
    if "&" in text:
        text = html.unescape(text)
    if not text.isascii():
        text = unicodedata.normalize("NFKC", text)
    if not text.isprintable():
        text = _RE_CONTROL.sub(" ", text)
    if "](" in text:
        text = _RE_MD_LINK.sub(lambda m: "" if "://" in m.group(1) else m.group(1), text)
    if "://" in text or "www." in text or "github" in text:
        text = _RE_AUTOLINK.sub("", text)
        text = _RE_URL_CMD.sub(lambda m: m.group(1) or "", text)
        text = _RE_URL.sub("", text)
        text = _RE_GITHUB_BARE.sub("", text)
    if "github.io" in text:
        text = _RE_GITHUB_IO.sub("", text)
    if "$" in text:
        text = _RE_MATH.sub(_math, text)
    if "\\" in text:
        # Nested commands (\textbf{\texttt{Co}}nservatively): peel a few layers.
        for _ in range(3):
            new = _RE_CMD_ARG.sub(lambda m: _emphasis(m, 1), text)
            if new == text:
                break
            text = new
        text = _RE_CMD_SYMBOL.sub(lambda m: _LATEX_ESCAPES.get(m.group(1), ""), text)
        text = _RE_CMD_BARE.sub(_latex_bare, text)
        text = text.replace("\\", "")
    if "{" in text or "}" in text or "~" in text:
        text = text.replace("{", "").replace("}", "").replace("~", " ")
    if "_" in text:
        text = _RE_MD_UNDERSCORE.sub(r"\1", text)
    if "*" in text or "__" in text:
        text = _RE_MD_EMPH.sub(lambda m: _emphasis(m, 2), text)
        text = text.replace("**", "")
    if "``" in text or "''" in text:
        text = _RE_TEX_QUOTES.sub('"', text)
    if "`" in text:
        text = text.replace("`", "")  # inline code marks; LaTeX ``quotes'' were handled above
    if "--" in text:
        text = _RE_DASHES.sub("—", text)
    if "- " in text:
        text = _RE_SOFT_HYPHEN.sub("", text)
    text = " ".join(text.split())
    if "(" in text or "[" in text:
        text = _RE_EMPTY_PARENS.sub("", text)
        text = _RE_SPACE_AFTER_OPEN.sub(r"\1", text)
    text = _RE_SPACE_BEFORE_PUNCT.sub(r"\1", text)
    return text.strip()


# --------------------------------------------------------------------------------------------
# Sentences and tokens.
# --------------------------------------------------------------------------------------------

_RE_SENT_BOUNDARY = re.compile(r"(?<=[.!?])[\"”’)]?\s+(?=[\"“(\[]?[A-Z0-9])")
_RE_ABBREV_END = re.compile(
    r"(?:\b(?:e\.g|i\.e|et al|etc|vs|cf|Fig|Figs|Eq|Eqs|Sec|resp|approx|No|Dr|Mr|Ms|Prof|St)"
    r"|\b[A-Z])\.$"
)


def _sentences(text: str) -> list[tuple[int, str]]:
    """Split into sentences; returns (start offset, sentence) pairs."""
    out: list[tuple[int, str]] = []
    start = 0
    for m in _RE_SENT_BOUNDARY.finditer(text):
        if _RE_ABBREV_END.search(text, max(start, m.start() - 8), m.start()):
            continue
        out.append((start, text[start : m.start()]))
        start = m.end()
    if start < len(text):
        out.append((start, text[start:]))
    if any(len(sent) > _MAX_SENTENCE_CHARS for _, sent in out):
        out = [piece for item in out for piece in _chunk(*item)]
    return out


def _chunk(offset: int, sent: str) -> list[tuple[int, str]]:
    """Split an over-long "sentence" (no punctuation for pages) at spaces."""
    pieces: list[tuple[int, str]] = []
    start = 0
    while len(sent) - start > _MAX_SENTENCE_CHARS:
        cut = sent.rfind(" ", start, start + _MAX_SENTENCE_CHARS)
        if cut <= start:
            cut = start + _MAX_SENTENCE_CHARS
        pieces.append((offset + start, sent[start:cut]))
        start = cut + 1 if sent[cut : cut + 1] == " " else cut
    pieces.append((offset + start, sent[start:]))
    return pieces


# A token: letters/digits joined by inner hyphens, dots or apostrophes, maybe ending in "+"s.
_RE_TOKEN = re.compile(r"(?<![\w\-+])[^\W_](?:[\w+]|[-.'’](?=[^\W_]))*")
_RE_PLURAL_ACRONYM = re.compile(r"^[A-Z][A-Z0-9\-]*[A-Z]s$")
_RE_ROMAN = re.compile(r"^[IVX]+$")
_RE_NUMBERISH = re.compile(r"^[\d.,\-]+[A-Za-z]{0,2}$")
_ADJECTIVE_SUFFIXES = (
    "-based",
    "-like",
    "-driven",
    "-aware",
    "-free",
    "-level",
    "-wise",
    "-style",
    "-specific",
    "-guided",
    "-agnostic",
    "-scale",
    "-tuned",
    "-tuning",
    "-augmented",
    "-enhanced",
    "-generated",
    "-powered",
    "-conditioned",
    "-centric",
    "-only",
    "-dependent",
    "-independent",
    "-invariant",
    "-equivariant",
    "-efficient",
    "-friendly",
    "-related",
    "-oriented",
    "-constrained",
    "-supervised",
    "-trained",
    "-as-a-judge",
)

# Ubiquitous field vocabulary that papers use but do not introduce. This is general ML
# background knowledge (model families, standard datasets, field acronyms), not a list taken from
# particular papers; a repository match still overrides it.
_COMMON_TERMS = frozenset(
    t.casefold()
    for t in _words(
        "AI AGI ML DL RL NLP CV LLM LM VLM MLLM LVLM VLA LRM SLM PLM GPT ChatGPT GPT-2 GPT-3 "
        "GPT-3.5 GPT-4 GPT-4o GPT-4V GPT-4-Turbo o1 o1-preview o1-mini o3 Claude Gemini LLaMA "
        "Llama Llama-2 Llama-3 Llama-3.1 Llama2 Llama3 LLaMA-2 LLaMA-3 Mistral Mixtral Qwen "
        "Qwen2 Qwen2.5 DeepSeek Vicuna Alpaca BERT RoBERTa T5 CLIP ViT DiT ResNet ResNet-50 "
        "ResNet-18 VGG U-Net UNet NeRF 3DGS SAM DINO DINOv2 MAE VAE GAN GANs CNN RNN LSTM GRU "
        "MLP GNN GCN GAT MPNN SSM SSMs Mamba Transformer Transformers MoE LoRA QLoRA PEFT SFT "
        "RLHF DPO PPO RLAIF KL SGD Adam AdamW ImageNet ImageNet-1K ImageNet-21K CIFAR CIFAR-10 "
        "CIFAR-100 MNIST COCO MS-COCO SVHN CelebA LAION GSM8K GSM8k MATH MMLU HumanEval MBPP "
        "BIG-Bench HellaSwag ARC TruthfulQA WikiText C4 SQuAD GLUE SuperGLUE FID KID IS PSNR "
        "SSIM LPIPS BLEU ROUGE AUC AUROC ROC MSE MAE RMSE OOD IID ID SOTA API APIs GPU GPUs TPU "
        "CPU CUDA PyTorch JAX TensorFlow HuggingFace RAG CoT ICL MCTS MDP MDPs POMDP DDPM DDIM "
        "SDE ODE PDE PDEs SDEs ODEs KAN KANs NTK PAC UCB TD DQN SAC TD3 Q-learning IRL BC "
        "NeurIPS ICLR ICML CVPR ECCV ICCV ACL EMNLP AAAI arXiv GitHub MRI fMRI EEG CT DNA RNA PDB "
        "SMILES"
    )
)

_NAMEY_GENERIC_START = _words(
    "we our this these those the a an in to for of on with by from at as it its their however "
    "moreover furthermore additionally specifically finally first second third then thus hence "
    "here there recent existing prior previous current many most some such while although "
    "despite unlike although since because when where which what how why our"
)


def _strip_possessive(token: str) -> str:
    if token.endswith(("'s", "’s")):
        return token[:-2]
    if token.endswith(("'", "’")):
        return token[:-1]
    return token


@functools.lru_cache(maxsize=8192)
def _name_shape(token: str) -> int:
    """How much a token looks like a coined name: 2 strong, 1 weak (Capitalized word), 0 none."""
    if len(token) < 2 or len(token) > 40:
        return 0
    lower = token.casefold()
    if lower.endswith(_ADJECTIVE_SUFFIXES):
        return 0
    if _RE_ROMAN.match(token) or _RE_NUMBERISH.match(token):
        return 0
    uppers = sum(map(str.isupper, token))
    if uppers == 0:
        return 0
    if not any(map(str.isalpha, token)):
        return 0
    if token.endswith("+"):
        return 2
    if "-" in token and all(
        part[:1].isupper() and part[1:].islower() or part.islower() for part in token.split("-")
    ):
        # "Few-Class", "Off-by-One", "Tamper-Resistant": a compound word, not a coinage
        return 1 if token[0].isupper() and token.casefold() not in _NAMEY_GENERIC_START else 0
    if uppers >= 2:
        return 2
    if not token[0].isupper():
        if uppers == 1 and not token[:3].islower():
            return 2  # kNN, xFinder, rStar: a short lowercase prefix
        if uppers == 1:
            return 0  # "emboDied": a highlighted letter inside an ordinary word
        return 2
    if any(ch.isdigit() for ch in token):
        return 2
    if lower in _NAMEY_GENERIC_START:
        return 0
    return 1


_RE_NON_ALNUM = re.compile(r"[\W_]+")


def _norm_key(text: str) -> str:
    return _RE_NON_ALNUM.sub("", text.casefold())


# --------------------------------------------------------------------------------------------
# Acronym definitions (Schwartz & Hearst 2003).
# --------------------------------------------------------------------------------------------


def _long_form_start(short: str, before: str) -> int:
    """Where the long form of ``short`` starts at the end of ``before`` (-1 if it does not).

    ``before`` is the text right before "(short)". The classic Schwartz-Hearst matcher: the
    acronym's characters are found right to left in the candidate long form, the first one at
    the start of a word.
    """
    chars = [ch.casefold() for ch in short if ch.isalnum()]
    if len(chars) < 2 or not chars[0].isalpha():
        return -1
    max_words = min(len(chars) + 5, len(chars) * 2)
    # The window: at most max_words words before the parenthesis.
    end = len(before)
    pos = end
    words = 0
    while pos > 0 and words < max_words:
        prev = before.rfind(" ", 0, pos - 1)
        pos = prev + 1 if prev >= 0 else 0
        words += 1
        if prev < 0:
            break
    window = before[pos:end]
    if any(ch in window for ch in "()[];:."):
        cut = max(window.rfind(ch) for ch in "()[];:")
        # a "." only counts as a boundary when followed by a space (not "1.5" or "e.g.")
        dot = window.rfind(". ")
        cut = max(cut, dot + 1 if dot >= 0 else -1)
        if cut >= 0:
            pos += cut + 1
            window = before[pos:end]
    low = window.casefold()
    s_idx = len(chars) - 1
    l_idx = len(low) - 1
    while s_idx >= 0:
        c = chars[s_idx]
        while l_idx >= 0 and (
            low[l_idx] != c or (s_idx == 0 and l_idx > 0 and low[l_idx - 1].isalnum())
        ):
            l_idx -= 1
        if l_idx < 0:
            return -1
        l_idx -= 1
        s_idx -= 1
    start = l_idx + 1
    # Extend to the start of the word that holds the first letter.
    while start > 0 and not window[start - 1].isspace():
        start -= 1
    long_form = window[start:].strip()
    if not long_form or " " not in long_form and "-" not in long_form:
        return -1
    if len(long_form) <= len(short):
        return -1
    return pos + start


def _acronym_core(token: str) -> str:
    """``LLMs`` -> ``LLM``: the form to match against a long form."""
    if _RE_PLURAL_ACRONYM.match(token):
        return token[:-1]
    return token


# --------------------------------------------------------------------------------------------
# Cues around a candidate occurrence.
# --------------------------------------------------------------------------------------------

_INTRO_VERBS = (
    r"propose|proposes|proposed|proposing|introduce|introduces|introduced|introducing|present|"
    r"presents|presented|presenting|develop|develops|developed|developing|design|designs|"
    r"designed|designing|construct|constructs|constructed|constructing|build|builds|built|"
    r"building|create|creates|created|creating|devise|devises|devised|devising|release|"
    r"releases|released|releasing|curate|curates|curated|curating|collect|collects|collected|"
    r"contribute|contributes|offer|offers|provide|provides|unveil|unveils|launch|launches|"
    r"implement|implements|establish|establishes|formulate|formulates|train|trains|"
    r"put forward|puts forward|pretrain|pre-train|open-source|open-sources|assemble|assembles|"
    r"compile|compiles|craft|crafts|crafted"
)
_PREPOSITIONS = _words(
    "of for in on with by from to into that which and or as at over under than such using via "
    "across between within is are was were be been being has have had can could may might will "
    "would should must who whom whose where when while e.g. i.e. not no also both either it "
    "its their them they this these those"
)
_RE_NAMING_BEFORE = re.compile(
    r"(?:\b(?:called|named|dubbed|termed|coined|codenamed|nicknamed|denoted(?: as| by)?"
    r"|abbreviated(?: as)?|name it|call it|call this|call them|refer to (?:it|this|them) as"
    r"|refer to as|term(?:ed)? as|named as|called as|dubbed as|coined as|denote it as|namely"
    r"|(?:we|which we|that we|and we)\s+(?:call|term|name|dub|coin|denote))"
    r"|\bi\.e\.,?|\bhereafter)[,:]?\s*[\"“'‘]?$",
    re.IGNORECASE,
)
_NAMING_LAST_WORDS = _words(
    "called named dubbed termed coined codenamed nicknamed as by it this them call term name dub "
    "coin denote denoted abbreviated namely i.e. i.e hereafter"
)
_RE_REFER_AS = re.compile(r"\brefer to (?:(?:the|a|an|our)\s+)?(.{2,100}?)\s+as\s*[\"“'‘]?$", re.I)
_RE_ARTICLE_BEFORE_COMMA = re.compile(
    r"\b(?:a|an|the|our)\s+([^,;:()]{2,90}),\s*[\"“'‘]?$", re.IGNORECASE
)
_RE_OUR_BEFORE = re.compile(
    r"\b(?:our|the proposed|our proposed|the new|our new|the novel)\s+(?:[\w\-]+\s+){0,2}"
    r"[\"“'‘]?$|\b(?:our|the proposed)\s+(?:method|methods|framework|approach|model|system|"
    r"algorithm|benchmark|dataset|pipeline|technique|architecture|tool|toolkit|agent|solution|"
    r"library|suite|metric|loss|module|strategy),\s*$",
    re.IGNORECASE,
)
_RE_KIND_BEFORE = re.compile(
    r"\b(?:benchmark|dataset|framework|method|model|algorithm|approach|system|pipeline|"
    r"toolkit|suite|corpus|agent|library|platform|architecture|technique|metric|environment)"
    r"\s+[\"“'‘]?$",
    re.IGNORECASE,
)
_RE_APPOSITIVE_AFTER = re.compile(
    r"^[\"”'’]?\s*(?:,|:|—|–|\s-)\s*(?:which is\s+|that is\s+|as\s+|i\.e\.,?\s+)?"
    r"(?:a|an|the(?!\s+(?:same|other|first time)\b)|our|one)\s",
    re.IGNORECASE,
)
_RE_COLON_AFTER = re.compile(r"^\s*:\s+[A-Z]")
_RE_IS_A_AFTER = re.compile(
    r"^\s+(?:is|as)\s+(?:a|an)\s+(?:novel|new|simple|general|first|unified|efficient)\b"
)
_RE_SUBJECT_AFTER = re.compile(
    r"^,?\s+(?:(?:introduces|presents|proposes)\s+(?:a|an|the)\b"
    r"|is\s+(?:a|an)\s+(?:novel|new)\b)"
)
_RE_PROPOSED_HERE = re.compile(
    r"^,?\s+(?:(?:which|that)\s+(?:is|was|we)\s+)?(?:proposed|introduced|presented|developed)\s+"
    r"(?:in|by)\s+(?:this|our|us)\b",
    re.IGNORECASE,
)
_RE_ABSTRACT_HEAD = re.compile(
    r"^[\"”'’]?\s*(?:,|:|—|–|\s-)\s*(?:a|an|the)\s+(?:(?:new|novel|general|simple|key|"
    r"fundamental|unified|broad)\s+)*(?:concept|notion|phenomenon|problem|setting|task|"
    r"property|principle|perspective|hypothesis|regime|question|issue|observation|insight|"
    r"effect|behaviou?r|family|class|term|measure of|quantity)\b",
    re.IGNORECASE,
)
_RE_CLAUSE_AFTER = re.compile(r"^\s*,?\s*(?:which|that)\s", re.IGNORECASE)
_RE_KNOWN_AFTER = re.compile(
    r"^[\"”'’]?\s*(?:,|:|—|–|\s-)?\s*(?:a|an|the)\s+(?:widely|popular|standard|well|famous|common|"
    r"classic|commonly|existing|prevalent|leading|state-of-the-art|recent|recently|prominent|"
    r"mainstream|representative|established|traditional|conventional|canonical|celebrated)",
    re.IGNORECASE,
)
_RE_USE_BEFORE = re.compile(
    r"\b(?:such as|e\.g\.,?|like|including|includes|include|than|versus|vs\.?|using|use|uses|"
    r"used|leverag\w*|utiliz\w*|employ\w*|adopt\w*|apply\w*|existing|prior|previous|popular|"
    r"standard|baselines?)\s+(?:the\s+)?[\"“'‘]?$",
    re.IGNORECASE,
)
_RE_FIRST_PERSON = re.compile(
    r"\b(?:we|our|us|this (?:paper|work|study|article|manuscript|submission)|here|the present "
    r"(?:paper|work))\b",
    re.IGNORECASE,
)
_RE_OTHERS_SUBJECT = re.compile(
    r"^(?:\w+\s+){0,2}(?:recent|existing|prior|previous|earlier|other|many|several)\s+(?:studies|"
    r"works|methods|approaches|research|literature|papers|efforts|researchers)\s+(?!that\b)"
    r"|\b(?:have|has) been (?:proposed|introduced|developed)|\breferred to as\b",
    re.IGNORECASE,
)
_RE_WE = re.compile(r"\b[Ww]e\b")
_RE_OTHER_VERB_SUBJECT = re.compile(
    r"\b(?:that|which|who|they|works?|studies|methods|approaches|authors|researchers|have|has|"
    r"had|been|be|is|are|was|were)\s+$",
    re.IGNORECASE,
)
_RE_KIND_GAP = re.compile(
    r"^\s*(?:(?:a|an|the|our)\s+)?(?:[\w\-]+\s+){0,3}(?:benchmark|dataset|framework|method|"
    r"model|algorithm|approach|system|pipeline|toolkit|suite|corpus|library|platform|"
    r"architecture|technique|metric|environment|agent|network|strategy|family|series)s?\s+"
    r"(?:for|of|called|named|dubbed|termed)\s+$",
    re.IGNORECASE,
)


@dataclass(slots=True)
class _Sentence:
    text: str
    first_person: bool
    verb_ends: list[int]
    promoted: bool = False  # "To address this, we ...", "In this paper, we ..."
    demoted: bool = False  # "We also ...", "Moreover, ...", "Finally, ..."


@dataclass(slots=True)
class _Occurrence:
    sentence: int
    start: int  # offsets inside the sentence: the name itself
    end: int
    ctx_start: int  # where the introduced phrase starts (long form start for "LF (ACR)")
    ctx_end: int  # after the name (and its "(expansion)" when there is one)
    expansion: str
    score: float = 0.0


_AddFn = Callable[[str, int, _Occurrence], None]


@dataclass(slots=True)
class _Candidate:
    text: str
    shape: int
    occurrences: list[_Occurrence]


def _gap_is_modifiers(gap: str, kind_gap: bool = False) -> bool:
    """True when the words between a verb and a name are only determiners / adjectives."""
    words = gap.split()
    if len(words) > 7:
        return False
    if not any(w.casefold().strip("\"“”'‘’") in _PREPOSITIONS for w in words):
        return len(words) <= 5
    # "a benchmark for Planning And Reasoning Tasks ... (PARTNR)": only for a defined acronym
    return kind_gap and bool(_RE_KIND_GAP.match(gap))


def _verb_before(sent: _Sentence, pos: int, kind_gap: bool = False) -> bool:
    """Is there an introducing verb right before ``pos`` (only modifiers in between)?"""
    for end in reversed(sent.verb_ends):
        if end > pos:
            continue
        if pos - end > 70:
            return False
        return _gap_is_modifiers(sent.text[end:pos], kind_gap)
    return False


def _cue_score(sent: _Sentence, occ: _Occurrence, shape: int) -> float:
    """How strongly the context of one occurrence says "this name is being introduced"."""
    text = sent.text
    base = max(0, occ.ctx_start - 120)
    pre = text[base : occ.ctx_start]
    post = text[occ.ctx_end : occ.ctx_end + 140]
    if post.startswith((" (", "(")):
        close = post.find(")", 0, 100)
        if close > 0:
            post = post[close + 1 :]
    post = post[:60]
    score = 0.0
    verb = _verb_before(sent, occ.ctx_start, bool(occ.expansion) and occ.ctx_start < occ.start)
    if verb:
        score += 3.0
    tail = pre[-48:]
    last_word = tail.rstrip(" ,:\"“'‘—–").replace("—", " ").rsplit(" ", 1)[-1]
    last_word = last_word.lstrip("([\"“'‘").lower()
    naming = (last_word in _NAMING_LAST_WORDS and bool(_RE_NAMING_BEFORE.search(tail))) or (
        " as" in tail and bool(_RE_REFER_AS.search(pre))
    )
    if naming:
        score += 4.0
    stripped = pre.rstrip(" \"“'‘")
    if not naming and stripped.endswith(","):
        appos = _RE_ARTICLE_BEFORE_COMMA.search(pre)
        if appos is not None:
            if _verb_before(sent, base + appos.start()):  # "we propose a ... framework, NAME"
                score += 3.0
            elif sent.first_person:
                score += 1.0
    low_tail = tail.lower()
    if "our" in low_tail or "propos" in low_tail or "new" in low_tail or "novel" in low_tail:
        if _RE_OUR_BEFORE.search(tail):
            score += 2.0
    elif _RE_KIND_BEFORE.search(tail):
        score += 0.5
    if _RE_KNOWN_AFTER.match(post):
        score -= 4.0
    elif _RE_APPOSITIVE_AFTER.match(post):
        score += 3.0 if score > 0 else 1.5
    elif _RE_COLON_AFTER.match(post) or _RE_IS_A_AFTER.match(post):
        score += 2.0
    elif score > 0 and _RE_CLAUSE_AFTER.match(post):
        score += 0.5
    if score > 0 and occ.expansion:
        score += 0.5
    if score > 0 and not naming and not verb and _RE_USE_BEFORE.search(tail):
        score -= 2.0
    if score > 0:
        if _RE_ABSTRACT_HEAD.match(post):
            score -= 1.5  # "X, a concept ...", "X, a phenomenon ...": not an artifact
        if sent.promoted:
            score += 0.5
        elif sent.demoted:
            score -= 1.0
    if _RE_PROPOSED_HERE.match(post):
        score += 3.0  # "Hallo2, proposed in this paper, is ..."
    if score > 0 and not sent.first_person:
        score *= 0.3
    if occ.ctx_start == 0 and occ.sentence <= 1 and _RE_SUBJECT_AFTER.match(post):
        score += 3.0  # the abstract opens with it: "MetaDesigner introduces a framework ..."
    return score


# --------------------------------------------------------------------------------------------
# Name detection.
# --------------------------------------------------------------------------------------------


@dataclass(slots=True)
class _Analysis:
    text: str
    sentences: list[_Sentence]
    acronyms: dict[str, str]  # acronym -> long form, from "long form (ACR)"
    name: str
    occurrence: _Occurrence | None


_RE_REPO_NAME = re.compile(r"[A-Za-z0-9._-]+")


def _repo_names(github: Sequence[str]) -> list[str]:
    """The repository names of the links, those GitHub's syntax allows (letters, digits, ._-)."""
    names: list[str] = []
    for url in github:
        if not isinstance(url, str):
            continue
        part = url.strip().rstrip("/").rsplit("/", 1)[-1]
        if part.endswith(".git"):
            part = part[:-4]
        if _RE_REPO_NAME.fullmatch(part):
            names.append(part)
    return names


_RE_PAREN = re.compile(r"\(([^()]{1,120})\)")
_RE_LAST_WORD = re.compile(r"([^\s(]+)$")
_RE_INTRO_PHRASE = re.compile(
    r"\b(?:" + _INTRO_VERBS + r")\s+(?:(?:the|a|an|our)\s+)?(?:(?:novel|new)\s+)?"
    r"([^,;:()]{3,100})$",
    re.IGNORECASE,
)
_RE_CAPS_PHRASE = re.compile(
    r"\b(?:" + _INTRO_VERBS + r")\s+(?:(?:the|a|an)\s+)?((?:[A-Z][\w\-]*\s+){1,7})"
)
_RE_MW_AFTER = re.compile(
    r"((?: (?:[A-Z][\w'’\-+]*|\d+(?:\.\d+)*\b|of|for|the|and|in|on|to|&)){1,3})"
)
_MAX_SCORED_OCCURRENCES = 3


def _paren_spans(
    s_idx: int, sent: str, acronyms: dict[str, str], inside: set[tuple[int, int]]
) -> dict[int, tuple[int, int, str]]:
    """Acronym definitions in a sentence: name start -> (context start, context end, expansion).

    Handles "Long Form (ACR)" (Schwartz-Hearst, or the object of an introducing verb when the
    letters do not line up, as in "Spectro-Riemannian Graph Neural Networks (CUSP)") and
    "NAME (Long Form)".
    """
    spans: dict[int, tuple[int, int, str]] = {}
    if "(" not in sent:
        return spans
    for pm in _RE_PAREN.finditer(sent):
        inner = pm.group(1).strip(" \"“”'‘’*")
        token = _strip_possessive(inner)
        base = max(0, pm.start() - 300)  # bounded look-back: no quadratic work on huge inputs
        before = sent[base : pm.start()].rstrip()
        if _RE_TOKEN.fullmatch(token) and _name_shape(token) == 2:
            start = _long_form_start(_acronym_core(token), before)
            if start < 0:
                m = _RE_INTRO_PHRASE.search(before, max(0, len(before) - 140))
                if m is not None and 2 <= len(m.group(1).split()) <= 10:
                    start = len(before) - len(m.group(1))
            if start >= 0:
                long_form = before[start:].strip(" ,\"“”'‘’")
                acronyms.setdefault(token, long_form)
                if _is_common(token):
                    continue  # "Integrative Decoding (ID)": the long form may be the name
                for tm in _RE_TOKEN.finditer(before, start):
                    inside.add((s_idx, base + tm.start()))
                spans[pm.start() + 1 + pm.group(1).find(token)] = (
                    base + start,
                    pm.end(),
                    long_form,
                )
        elif " " in inner and 2 <= len(inner.split()) <= 12:
            last = _RE_LAST_WORD.search(before, max(0, len(before) - 60))
            if last is None:
                continue
            token = _strip_possessive(last.group(1).strip("\"“”'‘’*"))
            if _name_shape(token) == 2 and _long_form_start(_acronym_core(token), inner) >= 0:
                acronyms.setdefault(token, inner)
                spans[base + before.rfind(token)] = (-1, pm.end(), inner)
    return spans


def _multiword(sent: _Sentence, s_idx: int, start: int, token: str, add: _AddFn) -> int:
    """Multi-word names that start with a name-like token ("TetSphere Splatting, a ...").

    Returns the end of the accepted name in the sentence, or -1.
    """
    text = sent.text
    m = _RE_MW_AFTER.match(text, start + len(token), start + len(token) + 60)
    if m is None:
        return -1
    words = m.group(1).split()
    for n in range(len(words), 0, -1):
        if not (words[n - 1][0].isupper() or words[n - 1][0].isdigit()):
            continue
        name = token + " " + " ".join(words[:n])
        end = start + len(name)
        if text[start:end] != name:
            continue
        occ = _Occurrence(s_idx, start, end, start, end, "")
        occ.score = _cue_score(sent, occ, 2)
        if occ.score >= _MIN_NAME_SCORE:
            add(name, 2, occ)
            return end
    return -1


_RE_LOWER_NAMED = re.compile(
    r"\b(?:termed|called|named|dubbed|coined|refer to (?:this|it|them|this \w+|our \w+) as)"
    r"\s+(?:as\s+)?(?:the\s+)?[\"“'‘]?([a-z][a-z\-]+(?: [a-z][a-z\-]+){0,3})"
    r"(?=[\"”'’]?(?:[,.;:()—–]|\s(?:which|that|to|for|in|with|where|is|was|and)\b|$))"
)
_RE_LOWER_INTRODUCED = re.compile(
    r"\b(?:introduce|introduces|propose|proposes|present|presents)\s+"
    r"([a-z][a-z\-]+(?: [a-z][a-z\-]+){0,3}),\s+(?:a|an)\s"
)
_LOWER_NAME_STOP = _words(
    "a an the this these that our their its two three four several new novel various multiple "
    "both each some such it them they we which what how when where whether"
)
_SMALL_WORDS = _words("a an the of for to in on and or as at by with via from")


def _lowercase_names(sent: _Sentence, s_idx: int, add: _AddFn) -> None:
    """Names written in lower case: "termed the functional homotopy method", "we introduce
    data taggants, a novel ... technique". They are title-cased as names."""
    text = sent.text
    if not any(w in text for w in ("termed", "called", "named", "dubbed", "coined", " as ", ", a")):
        return
    for rx in (_RE_LOWER_NAMED, _RE_LOWER_INTRODUCED):
        for m in rx.finditer(text):
            phrase = m.group(1)
            words = phrase.split()
            if words[0] in _LOWER_NAME_STOP or words[-1] in _SMALL_WORDS:
                continue
            if len(words) == 1 and "-" not in phrase:
                continue  # a single ordinary word is not a coined name
            start, end = m.start(1), m.end(1)
            occ = _Occurrence(s_idx, start, end, start, end, "")
            occ.score = _cue_score(sent, occ, 2) - 1.0
            if rx is _RE_LOWER_INTRODUCED:
                occ.score = max(occ.score, 0.0)
            if occ.score >= _MIN_NAME_SCORE:
                name = " ".join(
                    w
                    if i and w in _SMALL_WORDS
                    else "-".join(p[:1].upper() + p[1:] for p in w.split("-"))
                    for i, w in enumerate(words)
                )
                add(name, 3, occ)


def _is_common(token: str) -> bool:
    folded = token.casefold()
    return folded in _COMMON_TERMS or _acronym_core(token).casefold() in _COMMON_TERMS


_RE_SIDE_START = re.compile(
    r"(?:specifically|in particular|moreover|furthermore|additionally|also|finally|lastly|"
    r"besides|in addition|as a (?:by-?product|side))\b",
    re.IGNORECASE,
)
_RE_ALSO_EARLY = re.compile(r"\b(?:we|it|this)\s+(?:also|further|additionally)\b", re.IGNORECASE)
_RE_ING_LEAD = re.compile(r"(?:\b(?:by|via|through|after|and|while|thus|thereby)|,)\s+$")
_VERB_WORDS = frozenset(v for v in _INTRO_VERBS.split("|") if " " not in v)


_Token = tuple[int, int, str]  # start, end, text
_VERB_PATTERNS = {v: re.compile(r"(?<![\w-])" + re.escape(v) + r"(?![\w-])") for v in _VERB_WORDS}
_RE_PUT_FORWARD = re.compile(r"(?<![\w-])put forward\b")


def _is_verb_at(text: str, word: str, start: int) -> bool:
    """Is this lowercase word an introducing verb whose subject is the paper itself?"""
    if word not in _VERB_WORDS:
        return False
    if word.endswith("ing") and not _RE_ING_LEAD.search(text, max(0, start - 12), start):
        return False  # "the problem of releasing ..." is no introduction
    return not _RE_OTHER_VERB_SUBJECT.search(text, max(0, start - 14), start)


def _make_sentence(text: str) -> tuple[_Sentence, list[_Token]]:
    """One pass over a sentence's words: introducing-verb positions and name-like tokens.

    Only words with capitals or digits go through the token pattern, and verbs are found by a
    set intersection on the words, which is several times faster than tokenizing every word.
    """
    words = text.split(" ")
    verb_ends: list[int] = []
    for verb in _VERB_WORDS.intersection(text.replace(",", " ").replace(":", " ").split()):
        for vm in _VERB_PATTERNS[verb].finditer(text):
            if _is_verb_at(text, verb, vm.start()):
                verb_ends.append(vm.end())
    if "put" in words:
        verb_ends.extend(m.end() for m in _RE_PUT_FORWARD.finditer(text))
    tokens: list[_Token] = []
    pos = 0
    for word in [w for w in words if w and not w.islower()]:
        start = text.find(word, pos)
        while start > 0 and text[start - 1] != " ":
            start = text.find(word, start + 1)  # only whole words
        if start < 0:
            break
        pos = start + len(word)
        if word.lower() == word:
            continue  # no cased letters: numbers, symbols
        for tm in _RE_TOKEN.finditer(text, start, pos):
            tok = tm.group()
            if tok.islower():
                if _is_verb_at(text, tok, tm.start()):
                    verb_ends.append(tm.end())  # "(we propose", "X/introduce" ...
                continue
            if tok.isdigit():
                continue
            if tok[1:].islower() and tok.lower() in _VERB_WORDS:
                verb_ends.append(tm.end())  # "Introducing X, ..."
                continue
            tokens.append((tm.start(), tm.end(), tok))
    verb_ends.sort()
    first_person = bool(_RE_FIRST_PERSON.search(text))
    if first_person and not _RE_WE.search(text) and _RE_OTHERS_SUBJECT.search(text):
        first_person = False
    sentence = _Sentence(text, first_person, verb_ends)
    if first_person:
        sentence.promoted = bool(_RE_PROMOTED_START.match(text))
        sentence.demoted = bool(_RE_SIDE_START.match(text) or _RE_ALSO_EARLY.search(text, 0, 40))
    return sentence, tokens


def _analyse(abstract: str, github: Sequence[str]) -> _Analysis:
    """Clean and split the abstract, score every name-like candidate, pick the introduced name.

    Candidates are tokens with capitals or digits (ParaSolver, HELMET, ORW-CFM-W2, kNN),
    multi-word names that start with one (TetSphere Splatting), lower-case phrases after a naming
    word (termed the functional homotopy method), and undefined acronyms that spell an introduced
    phrase (CONGO). Each of their first occurrences is scored by :func:`_cue_score`.
    """
    text = clean_text(abstract[:MAX_SCAN_CHARS])
    parsed = [_make_sentence(s) for _, s in _sentences(text)]
    sentences = [p[0] for p in parsed]
    repos = _repo_names(github)
    repo_keys = {_norm_key(r): r for r in repos if len(_norm_key(r)) >= 2}
    repo_parts: set[str] = set()
    for r in repos:
        for part in re.split(r"[-_.]", r):
            if len(_norm_key(part)) >= 3:
                repo_parts.add(_norm_key(part))

    acronyms: dict[str, str] = {}
    candidates: dict[str, _Candidate] = {}
    counts: dict[str, int] = {}
    inside: set[tuple[int, int]] = set()

    def add(token: str, shape: int, occ: _Occurrence) -> None:
        cand = candidates.get(token)
        if cand is None:
            candidates[token] = _Candidate(token, shape, [occ])
        else:
            cand.occurrences.append(occ)

    for s_idx, (sent, tokens) in enumerate(parsed):
        stext = sent.text
        spans = _paren_spans(s_idx, stext, acronyms, inside)
        prev_end = -2
        for start, tok_end, raw in tokens:
            token = _strip_possessive(raw)
            shape = _name_shape(token)
            follows_capital = prev_end == start - 1
            prev_end = tok_end
            if shape == 0 or (shape == 1 and follows_capital):
                continue  # "TetSphere Splatting": the second word is no name on its own
            end = start + len(token)
            before_capital = stext.startswith(" ", end) and stext[end + 1 : end + 2].isupper()
            if shape == 1 and (
                start == 0 or stext[max(0, start - 4) : start].rstrip().endswith((":", "."))
            ):
                continue  # a capitalized sentence start is not a name
            n = counts.get(token, 0) + 1
            counts[token] = n
            if n > _MAX_SCORED_OCCURRENCES or (s_idx, start) in inside:
                continue
            if before_capital and (sent.first_person or sent.verb_ends):
                covered_until = _multiword(sent, s_idx, start, token, add)
                if covered_until > 0:
                    for inner_start, _, _ in tokens:
                        if start < inner_start < covered_until:
                            inside.add((s_idx, inner_start))
                    continue  # "Minimal Impact ControlNet" is the name, not "ControlNet"
            if shape == 1 and before_capital:
                continue  # "Adjoint Matching": only the whole phrase can be the name
            common = _norm_key(token) not in repo_keys and (
                _is_common(token) or bool(_RE_PLURAL_ACRONYM.match(token))
            )
            ctx_start, ctx_end, expansion = start, end, ""
            span = spans.get(start)
            if span is not None:
                if span[0] >= 0:
                    ctx_start, ctx_end, expansion = span[0], span[1], span[2]
                else:
                    ctx_end, expansion = span[1], span[2]
            occ = _Occurrence(s_idx, start, end, ctx_start, ctx_end, expansion)
            occ.score = _cue_score(sent, occ, shape)
            if common:
                # Field vocabulary (LLMs, Adam, GPT-4) is only a name when introduced outright:
                # "we introduce ADAM, An emboDied causal Agent in Minecraft".
                if occ.score < _STRONG_CUE:
                    continue
                occ.score -= 2.0
            add(token, shape, occ)

        if sent.first_person:
            _lowercase_names(sent, s_idx, add)

    _spelled_acronyms(sentences, candidates, acronyms)
    best_name, best_occ = _pick(candidates, counts, repo_keys, repo_parts, text)
    if best_name:
        repo = repo_keys.get(_norm_key(best_name))
        if repo is not None and any(ch.isupper() for ch in repo):
            best_name = repo  # the repository's deliberate casing (COLLABEDIT -> CollabEdit)
    return _Analysis(text, sentences, acronyms, best_name, best_occ)


def _spelled_acronyms(
    sentences: list[_Sentence], candidates: dict[str, _Candidate], acronyms: dict[str, str]
) -> None:
    """Undefined acronyms that spell a capitalized phrase the paper introduces.

    "We tackle this problem by introducing the Compressive Online Gradient Optimization
    framework ... CONGO's superiority": CONGO is the name, the phrase its expansion.
    """
    for token, cand in candidates.items():
        if (
            token in acronyms
            or not token.isupper()
            or len(token) < 3
            or max(o.score for o in cand.occurrences) > 0
        ):
            continue
        first = min(o.sentence for o in cand.occurrences)
        for s_idx, sent in enumerate(sentences[: first + 1]):
            if not sent.first_person or not sent.verb_ends:
                continue
            for vm in _RE_CAPS_PHRASE.finditer(sent.text):
                phrase = vm.group(1).rstrip()
                if _long_form_start(token, phrase) != 0:
                    continue
                ctx_start = vm.start(1)
                occ = _Occurrence(
                    s_idx,
                    ctx_start,
                    ctx_start + len(phrase),
                    ctx_start,
                    ctx_start + len(phrase),
                    phrase,
                )
                occ.score = _cue_score(sent, occ, 2) + 0.5
                acronyms.setdefault(token, phrase)
                cand.occurrences.append(occ)


def _pick(
    candidates: dict[str, _Candidate],
    counts: dict[str, int],
    repo_keys: dict[str, str],
    repo_parts: set[str],
    text: str,
) -> tuple[str, _Occurrence | None]:
    """The best-supported candidate: its strongest introduction, how often it is reused, and
    whether a repository carries its name. Returns ("", None) when nothing is convincing."""
    best_name = ""
    best_occ: _Occurrence | None = None
    best_score = _MIN_NAME_SCORE - 1e-9
    folded = text.casefold()
    for token, cand in candidates.items():
        key = _norm_key(token)
        if not key:
            continue
        occ = max(cand.occurrences, key=lambda o: o.score)
        score = occ.score
        count = folded.count(token.casefold()) if " " in token else counts.get(token, 0)
        repo = key in repo_keys
        if not repo and occ.score <= 0:
            continue
        if cand.shape == 1 and not repo and occ.score < _MIN_NAME_SCORE:
            continue  # a plain capitalized word is only a name when clearly introduced
        if count >= 2:
            score += min(count - 1, 4) * 0.4
        if repo:
            score += 5.0
        elif key in repo_parts:
            score += 1.0
        if cand.shape == 1 and not repo:
            score -= 1.0
        if score > best_score or (
            score == best_score
            and best_occ is not None
            and (occ.sentence, occ.start) < (best_occ.sentence, best_occ.start)
        ):
            best_score, best_name, best_occ = score, token, occ
    return best_name, best_occ


def find_introduced_name(abstract: str, github: Sequence[str] = ()) -> str:
    """Return the name of the method / benchmark / dataset / model the abstract introduces.

    The name must be tied to an introducing pattern ("we propose X, a ...", "a ... framework,
    X", "named X", "Long Form (X)" as the object of "we propose/introduce") or match one of the
    paper's ``github`` repositories (whose casing then wins when it has capitals). Acronyms that
    the paper merely uses (LLMs, MDPs, GPT-4, ImageNet) are not names. Returns ``""`` when there
    is none.
    """
    if not abstract or not abstract.strip():
        return ""
    return _analyse(abstract, github).name


# --------------------------------------------------------------------------------------------
# Phrases and titles.
# --------------------------------------------------------------------------------------------

_RE_PARENTHETICAL = re.compile(r"\s*[(\[][^()\[\]]{0,160}[)\]]")
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
_RE_HARD_CUT = re.compile(
    r";|\s—\s|—|\s–\s|:\s*\(?(?:1|i|a)\)|\s\((?:1|i|a)\)|\.(?:\s|$)"
    r"|,\s*(?:which|where|while|whereas|thus|thereby|hence|and (?:we|it|our|they|then|also)|"
    r"but|yet|so that|such that|allowing|enabling|leading|resulting|achieving|showing|"
    r"demonstrating|outperforming|making|with|without|namely|e\.g\.|i\.e\.|specifically|"
    r"including|particularly|especially)\b"
    r"|\sand\s(?:then\s)?[a-z][a-z\-]+\s(?:a|an|the|our|their|its|several|two|three|new|novel)\s"
    r"|\s(?:and|but|then)\s(?:we\s)?(?:(?:prove|show|demonstrate|derive|provide|propose|"
    r"introduce|present|evaluate|establish|obtain|find|validate|conduct|develop|analy[sz]e|use|"
    r"achieve|extend|investigate|explore|reveal)(?:s|es|ed|d|ing)?|appl(?:y|ies|ied|ying)|"
    r"stud(?:y|ies|ied|ying)|identif(?:y|ies|ied|ying))\b",
    re.IGNORECASE,
)
_RE_CUT_TIER1 = re.compile(
    r"\s(?=(?:that|which|where|while|whereby|such that|so that|thereby|whose)\s)"
    r"|,\s(?=(?:which|where|while|whereas|and|but|thus|thereby|including|such|e\.g\.|i\.e\.|"
    r"a|an|the|as|with|without|[a-z]+ing)\b)",
    re.IGNORECASE,
)
_RE_CUT_TIER2 = re.compile(
    r"\s(?=(?:by|using|via|through|to|with|without|based on|in order to|so as to|as well as|for|"
    r"under|from|across|on|in|against|over|beyond|within|into)\s)",
    re.IGNORECASE,
)
_RE_ADJ_END = re.compile(r"(?:ive|ent|ant|al|ic|ous|ful|less|able|ible|ary|ed)$")
_TRAILING_STOP = _words(
    "a an the of for to and or in on with by from that which as at its their our is are be "
    "into over under via using than such whose this these both between across within based "
    "built designed tailored taken derived obtained used aimed aiming called named while applied "
    "guided conditioned trained including"
)


def _tidy(phrase: str) -> str:
    """Drop parentheticals (and a dangling unclosed one) and stray punctuation; one line."""
    phrase = _RE_PARENTHETICAL.sub("", phrase)
    for bracket in "([":
        if bracket in phrase:
            phrase = phrase[: phrase.index(bracket)]
    phrase = _RE_SPACE.sub(" ", phrase).strip(" ,;:—–-\"“”'‘’.")
    return phrase.replace(" ,", ",")


def _hard_cut(phrase: str) -> str:
    """Cut a phrase at its first clause boundary (";", ", which", " and we show", ". ")."""
    for m in _RE_HARD_CUT.finditer(phrase):
        if m.start() >= 12:
            phrase = phrase[: m.start()]
            break
    return phrase.strip(" ,;:—–-")


def _strip_trailing(words: list[str]) -> list[str]:
    """Drop dangling function words, participles and "-ally" adverbs at the end of a cut."""
    while words:
        last = words[-1].rstrip(",;:—–-(")
        low = last.casefold()
        if not last or low in _TRAILING_STOP or (low.endswith("ally") and len(low) > 6):
            words.pop()
            continue
        words[-1] = last
        break
    return words


def _drop_short_tail(cut: str, low: int) -> str:
    """Drop a last comma segment of at most three words ("..., to address") if enough is left."""
    comma = cut.rfind(", ")
    if comma >= low and len(cut[comma + 2 :].split()) <= 3:
        return " ".join(_strip_trailing(cut[:comma].split()))
    return cut


def _fit(title: str, limit: int = MAX_TITLE_LENGTH, floor: int = 0) -> str:
    """Shorten ``title`` to ``limit`` characters at a clause or word boundary.

    Cuts at the last clause boundary ("that", "which", ", ") past 45% of the limit, or the last
    phrase boundary ("to", "for", "by", ...) past 70% of it, without an ellipsis; otherwise at
    the last word boundary, adding "…". Nothing before ``floor`` is cut.
    """
    title = _RE_SPACE.sub(" ", title).strip()
    if len(title) <= limit:
        return title
    window = title[: limit + 16]  # room for the boundary regexes' look-ahead
    for tier, share in ((_RE_CUT_TIER1, 0.45), (_RE_CUT_TIER2, 0.7)):
        low = max(floor, int(limit * share))
        best = -1
        for m in tier.finditer(window):
            if m.start() > limit:
                break
            if m.start() >= low and not (
                window[m.start()] == "," and _RE_ADJ_END.search(window, 0, m.start())
            ):
                best = m.start()
        if best > 0:
            cut = _drop_short_tail(" ".join(_strip_trailing(title[:best].split())), low)
            if len(cut) >= low:
                return cut
    words = title[: limit - 1].split()  # one character is left for the ellipsis
    if not title[limit - 1].isspace() and len(words) > 1:
        words = words[:-1]  # the last word was cut through
    cut = _drop_short_tail(" ".join(_strip_trailing(words)), max(floor, int(limit * 0.6)))
    if len(cut) < max(floor, 1):
        cut = title[: limit - 1].rstrip()
    return cut[: limit - 1].rstrip() + _ELLIPSIS


def _simple_words(text: str) -> bool:
    return all(w[:1].isupper() and w[1:].islower() or w.islower() for w in text.split("-"))


def _render(phrase: str, acronyms: dict[str, str], name: str, budget: int) -> str:
    """Make a title phrase of at most ``budget`` characters from raw sentence text.

    Parentheticals go. When the phrase is too long, spelled-out forms of acronyms the abstract
    defined are contracted back to their acronyms, last first ("... Markov decision processes
    (MDPs)" -> "... MDPs"), and then it is cut at a clause or word boundary. Finally, acronyms are
    spelled out while that still fits ("KE framework" -> "knowledge editing framework").
    """
    contractible: list[tuple[int, int, str]] = []
    for pm in _RE_PAREN.finditer(phrase):
        acr = pm.group(1).strip()
        long_form = acronyms.get(acr)
        if long_form and phrase[: pm.start()].rstrip().endswith(long_form):
            start = phrase.rfind(long_form, 0, pm.start())
            contractible.append((start, pm.end(), acr))
    text = _tidy(phrase)
    for i in range(len(contractible) - 1, -1, -1):
        if len(text) <= budget:
            break
        start, end, acr = contractible[i]
        phrase = phrase[:start] + acr + phrase[end:]
        text = _tidy(phrase)
    if len(text) > budget:
        text = _fit(text, budget)
        if text.endswith(_ELLIPSIS):
            return text
    for acr, long_form in acronyms.items():
        if acr == name or (name and _norm_key(acr) in _norm_key(name)):
            continue
        if acr not in text or len(text) + len(long_form) - len(acr) > budget:
            continue
        pat = re.compile(r"(?<![\w-])" + re.escape(acr) + r"(?![\w-])")
        m = pat.search(text)
        if m is None or text[: m.start()].rstrip().endswith(long_form):
            continue
        simple = all(_simple_words(w) for w in long_form.split())
        replacement = long_form.lower() if simple and m.start() > 0 else long_form
        text = text[: m.start()] + replacement + text[m.end() :]
    return text


_RE_CONTRIB_SUBJECT = re.compile(
    r"\b(?:we|this (?:paper|work|study|article|manuscript)|the (?:present|current) "
    r"(?:paper|work|study)|our (?:work|paper|study))"
    r"\s+(?:also\s+|further\s+|then\s+|first\s+|additionally\s+|theoretically\s+|"
    r"empirically\s+|formally\s+|systematically\s+|carefully\s+|instead\s+|here\s+|now\s+|"
    r"rigorously\s+|comprehensively\s+|thoroughly\s+)?"
    r"(?P<verb>[a-z]+(?:\s+(?:on|to|up|forward|out|into|upon))?)\b",
    re.IGNORECASE,
)
_STRONG_VERBS = _words(
    "propose proposes proposed introduce introduces introduced present presents presented develop "
    "develops developed design designs designed construct constructs constructed build builds "
    "built create creates created devise devises devised release releases curate curates "
    "establish establishes offer offers put"
)
_NOUN_VERBS = _STRONG_VERBS | _words(
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
_THAT_VERBS = _words(
    "show shows demonstrate demonstrates prove proves find finds reveal reveals argue argues "
    "observe observes discover discovers hypothesize hypothesizes confirm confirms establish "
    "establishes verify verifies highlight highlights posit posits showed shown demonstrated "
    "proved found revealed observed discovered confirmed verified highlighted"
)
_SKIP_VERBS = _words(
    "also further can will are is have has do does did were was may might should would must "
    "need needs"
)
_RE_TO_VERB = re.compile(
    r"^(?:attempts?|aims?|seeks?|tries|try|strives?|set out|wish|want|intend|propose|proposes)"
    r"\s+to\s+([a-z]+)\s+",
    re.IGNORECASE,
)
_RE_BY_VERB = re.compile(r"\bby\s+([a-z]+ing)\s+", re.IGNORECASE)
_INTRO_GERUNDS = _words(
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
_RE_PROMOTED_START = re.compile(
    r"^(?:to (?:address|tackle|solve|overcome|bridge|fill|close|mitigate|remedy|resolve|this end|"
    r"that end|alleviate|handle|fix)|in this (?:paper|work|study)|here,|this paper|this work|"
    r"we (?:propose|introduce|present))",
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


_TO_VERB_HEADS = _words(
    "attempt attempts aim aims seek seeks try tries strive strives set wish want intend propose "
    "proposes"
)
_ANAPHORA = _words("this these that those it its they them their such which there here both")
_RE_FOR_FIRST_TIME = re.compile(r"\b,?\s*for the first time\b,?", re.IGNORECASE)


def _object_phrase(obj: str) -> str:
    """Tidy the object of a contribution verb into a title phrase (may come back short)."""
    obj = _RE_FOR_FIRST_TIME.sub("", obj).lstrip(" ,")
    phrase = _hard_cut(obj)
    phrase = _RE_LEAD_HYPE.sub("", phrase, count=1)
    return _RE_PROBLEM_OF.sub("", phrase, count=1)


def _contribution_phrase(analysis: _Analysis, budget: int) -> str:
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
            if _RE_PROMOTED_START.search(text):
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
        return _tidy(analysis.text)
    return _capitalize(_render(best[1], analysis.acronyms, "", budget))


def _capitalize(phrase: str) -> str:
    if phrase and phrase.split(" ", 1)[0].islower():
        return phrase[0].upper() + phrase[1:]
    return phrase


def _lower_first(phrase: str) -> str:
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
_GENERIC_HEADS = _words(
    "method approach framework technique model algorithm system pipeline strategy scheme tool "
    "solution module architecture"
)


def _name_aliases(name: str, acronyms: dict[str, str]) -> list[str]:
    """The name and its acronym or spelled-out form, longest first."""
    aliases = {name}
    for acr, long_form in acronyms.items():
        if acr.casefold() == name.casefold():
            aliases.add(long_form)
        elif long_form.casefold() == name.casefold():
            aliases.add(acr)
    return sorted(aliases, key=len, reverse=True)


def _strip_name(phrase: str, names: Sequence[str]) -> str:
    """Drop the name itself from either end of its description ("..., Drama" -> "...")."""
    for name in names:
        if not phrase or not name:
            break
        key = name.casefold()
        low = phrase.casefold()
        if low.startswith(key) and not phrase[len(name) : len(name) + 1].isalnum():
            phrase = _tidy(phrase[len(name) :].lstrip(" ,:;—–-'’s"))
        elif low.startswith("the " + key) and not phrase[len(name) + 4 : len(name) + 5].isalnum():
            phrase = _tidy(phrase[len(name) + 4 :].lstrip(" ,:;—–-"))
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


def _name_phrase(analysis: _Analysis, budget: int) -> str:
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
    if expansion and _norm_key(expansion) == _norm_key(analysis.name):
        expansion = ""
    appositive = ""
    m = _RE_APPOS_TEXT.match(post) or _RE_COLON_TEXT.match(post) or _RE_IS_A_TEXT.match(post)
    if m is not None:
        appositive = _hard_cut(m.group(1))
    descriptor = ""
    refer = _RE_REFER_AS.search(pre[-140:])
    if refer is not None:
        descriptor = refer.group(1)
    else:
        d = _RE_DESCRIPTOR.search(pre[-140:])
        if d is not None and (
            pre.rstrip(" \"“'‘").endswith(",") or _RE_NAMING_BEFORE.search(pre[-48:])
        ):
            descriptor = d.group(1)
    continuation = ""
    c = _RE_CONTINUATION.match(post)
    if c is not None:
        continuation = _hard_cut(c.group(1))
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
    aliases = [analysis.name] if expansion else _name_aliases(analysis.name, analysis.acronyms)
    phrase = _render(_strip_name(phrase, aliases), analysis.acronyms, analysis.name, budget)
    words = phrase.split()
    if len(words) < 2 and not (words and words[0].casefold() not in _GENERIC_HEADS):
        return ""
    return phrase


def _raw_fallback(abstract: str) -> str:
    text = _RE_SPACE.sub(" ", _RE_CONTROL.sub(" ", abstract[: MAX_TITLE_LENGTH * 4])).strip()
    return _fit(text) if text else "Untitled"


def derive_title(abstract: str, github: Sequence[str] = ()) -> DerivedTitle:
    """Derive a display title (and the introduced name, if any) from an abstract.

    With a name: ``NAME: phrase`` where the phrase is the abstract's own description of it
    (appositive, acronym expansion or the noun phrase before it), or else the main contribution
    clause. Without one: the main contribution clause ("We present the first comprehensive
    analysis of X" -> "Analysis of X"). Always <= :data:`MAX_TITLE_LENGTH` characters, never
    empty for a non-blank abstract; ``DerivedTitle("", "")`` for a blank one.
    """
    if not abstract or not abstract.strip():
        return DerivedTitle("", "")
    analysis = _analyse(abstract, github)
    name = analysis.name
    if name:
        prefix = name + ": "
        if len(prefix) > MAX_TITLE_LENGTH // 2:
            return DerivedTitle(_fit(name), name)
        budget = MAX_TITLE_LENGTH - len(prefix)
        phrase = _name_phrase(analysis, budget)
        if not phrase:
            aliases = _name_aliases(name, analysis.acronyms)
            phrase = _strip_name(_contribution_phrase(analysis, budget), aliases)
            phrase = _lower_first(phrase)
        if not phrase or _norm_key(phrase) == _norm_key(name):
            return DerivedTitle(_fit(name), name)
        return DerivedTitle(_fit(prefix + phrase, floor=len(prefix) + 8), name)
    phrase = _contribution_phrase(analysis, MAX_TITLE_LENGTH)
    title = _fit(phrase) if phrase else ""
    return DerivedTitle(title or _raw_fallback(abstract), "")
