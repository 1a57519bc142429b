"""Tests of storage.sources.cleaning: stable keys, GitHub links and display text.

Golden inputs are short snippets copied from real ICLR 2025 abstracts and titles. The seed
tests read the lists shipped in storage/sample; the real-data tests read ../shared (beside the
checkout) and skip where it is absent.
"""

from __future__ import annotations

import json
import re
import time
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from storage.sources.links import extract_github_links, github_from_code_field
from storage.text import latex as cleaning
from storage.text.latex import to_unicode as display_text
from storage.text.normalize import key as normalize_key

SHARED = Path(__file__).resolve().parents[2].parent / "shared"
SEEDS = Path(__file__).resolve().parents[2] / "storage" / "sample"  # the seeds, as shipped
ICLR = SHARED / "data" / "iclr2025.jsonl"

CANONICAL = re.compile(r"https://github\.com/[A-Za-z0-9][A-Za-z0-9-]*/[A-Za-z0-9._-]+")


# --------------------------------------------------------------------------------------
# normalize_key
# --------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("left", "right"),
    [
        ("ﬁne-tuning", "fine tuning"),  # NFKC ligature
        ("The  Model!", "the model"),
        ("ＡＢＣ１２３", "abc123"),  # full-width forms
        ("Straße", "STRASSE"),  # case folding, not just lowering
        ("Re\u0301nyi", "Rényi"),  # decomposed and composed accents
        ("line\nbreak\tand   spaces", "linebreakandspaces"),
    ],
)
def test_normalize_key_identifies_the_same_text(left: str, right: str) -> None:
    assert normalize_key(left) == normalize_key(right)


@pytest.mark.parametrize(
    ("text", "key"),
    [
        ("ﬁne-Tuning: x_y = 3.5%!", "finetuningxy35"),
        ("Rényi entropy", "rényientropy"),
        ("ICLR 2025 论文列表", "iclr2025论文列表"),
        ("   ", ""),
        ("", ""),
    ],
)
def test_normalize_key_keeps_only_letters_and_digits(text: str, key: str) -> None:
    assert normalize_key(text) == key


def test_normalize_key_tells_different_texts_apart() -> None:
    assert normalize_key("graph neural networks") != normalize_key("graph neural network")


# --------------------------------------------------------------------------------------
# extract_github_links
# --------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "links"),
    [
        ("Code at https://github.com/WoodySJR/LASeR.", ["WoodySJR/LASeR"]),
        ("Code available at github.com/ArmandCom/InCoDe.", ["ArmandCom/InCoDe"]),
        ("see http://github.com/a-b/c_d, too", ["a-b/c_d"]),
        ("at www.github.com/Owner/Repo;", ["Owner/Repo"]),
        (
            r"is available at \url{https://github.com/lamda-bbo/Offline-RaM}.",
            ["lamda-bbo/Offline-RaM"],
        ),
        (
            "available in the [Mixture-UCB Github repository]"
            "(https://github.com/Rezaei-Parham/Mixture-UCB).",
            ["Rezaei-Parham/Mixture-UCB"],
        ),
        ("Code available at <https://github.com/aimagelab/mammoth>", ["aimagelab/mammoth"]),
        (
            "publicly available at https://github.com/Jianrong-Lu/ParaSolver.git.",
            ["Jianrong-Lu/ParaSolver"],
        ),
        ("code: https://github.com/PathFoundation/PathGen-1.6M.", ["PathFoundation/PathGen-1.6M"]),
        ("at https://github.com/Div290/BEEM1/tree/main.", ["Div290/BEEM1"]),
        ("at https://github.com/SeanLee97/AnglE/blob/main/README_ESE.md.", ["SeanLee97/AnglE"]),
        (
            "is available at https://github.com/jiawei415/RobustDecisionTransformer。",
            ["jiawei415/RobustDecisionTransformer"],
        ),
        ("the AIRS library (https://github.com/divelab/AIRS/).", ["divelab/AIRS"]),
        (
            r"\href{https://github.com/BlueWhaleLab/COME}{https://github.com/BlueWhaleLab/COME}.",
            ["BlueWhaleLab/COME"],
        ),
        (
            "can be found at https://github.com/Xiangtaokong/TGBD}{https://github.com/Xiangtaokong/TGBD.",
            ["Xiangtaokong/TGBD"],
        ),
        (r"\url{https://github.com/nlokeshiisc/IDI\_release}", ["nlokeshiisc/IDI_release"]),
        (r"https://github.com/owner/repo\#readme", ["owner/repo"]),
        (
            "Code is available at:https: //github.com/facebookresearch/Exact-LMs.",
            ["facebookresearch/Exact-LMs"],
        ),
        ('"https://github.com/a/b" and (https://github.com/c/d)', ["a/b", "c/d"]),
        ("git clone git@github.com:owner/tool.git", ["owner/tool"]),
        (
            "https://github.com/mit-han-lab/deepcompressor/ and https://github.com/mit-han-lab/nunchaku/,",
            ["mit-han-lab/deepcompressor", "mit-han-lab/nunchaku"],
        ),
    ],
)
def test_extract_github_links_finds_every_written_form(text: str, links: list[str]) -> None:
    assert extract_github_links(text) == tuple(f"https://github.com/{link}" for link in links)


@pytest.mark.parametrize(
    "text",
    [
        "Code is in supplemental material and will be released on GitHub after acceptance.",
        "bug localization within GitHub repositories",
        "Project page: https://foundation-model-research.github.io/NeuronPath/.",
        "[spider2-sql.github.io](spider2-sql.github.io) .",
        "see https://gist.github.com/someone/0123abcd",
        "https://github.com/owner alone, or https://github.com/owner/ with a slash",
        "https://github.com/features/copilot and https://github.com/topics/llm",
        "https://github.com/orgs/community/discussions and github.com/sponsors/someone",
        "https://raw.githubusercontent.com/a/b/main/x and mygithub.com/a/b",
        "https://gitlab.com/a/b",
        "GITHUB.COM/0/İ and github.com/owner/İstanbul",  # found by hypothesis: ASCII names only
    ],
)
def test_extract_github_links_ignores_what_is_not_a_repository(text: str) -> None:
    assert extract_github_links(text) == ()


def test_extract_github_links_keeps_first_spelling_in_order_of_appearance() -> None:
    text = (
        "[github.com/henryzhongsc/MQuAKE-Remastered](https://github.com/henryzhongsc/MQuAKE-Remastered)"
        " then https://github.com/B/two and https://GitHub.com/HENRYZHONGSC/mquake-remastered.git"
    )
    assert extract_github_links(text) == (
        "https://github.com/henryzhongsc/MQuAKE-Remastered",
        "https://github.com/B/two",
    )


def test_extract_github_links_reads_several_texts_and_lists() -> None:
    links = extract_github_links("https://github.com/a/one", "nothing", "github.com/b/two")
    assert links == ("https://github.com/a/one", "https://github.com/b/two")
    assert extract_github_links() == ()


@pytest.mark.parametrize(
    ("value", "links"),
    [
        ("https://github.com/x/y/tree/main", ["x/y"]),
        ("x/y", ["x/y"]),
        ("owner-name/repo.name.git", ["owner-name/repo.name"]),
        ("x/y/tree/main/src", ["x/y"]),
        ("['https://github.com/x/y', 'a/b']", ["x/y", "a/b"]),
        ("https://github.com/x/y, a/b; https://github.com/X/Y", ["x/y", "a/b"]),
        ("See https://github.com/x/y for the code and/or data", ["x/y"]),
        ("code and/or data will follow", []),
        ("N/A", []),
        ("https://gitlab.com/x/y", []),
        ("huggingface.co/x/y", []),
        ("", []),
    ],
)
def test_github_from_code_field(value: str, links: list[str]) -> None:
    assert github_from_code_field(value) == tuple(f"https://github.com/{link}" for link in links)


def _seed_paragraphs() -> list[str]:
    """Return the abstracts of every seed list: header line, then blank-line paragraphs."""
    if not SEEDS.is_dir():
        pytest.skip(f"seed lists not found at {SEEDS}")
    paragraphs: list[str] = []
    for path in sorted(SEEDS.glob("*.txt")):
        _header, _, body = path.read_text(encoding="utf-8").partition("\n")
        paragraphs += [p for p in re.split(r"\n\s*\n", body) if p.strip()]
    return paragraphs


SEED_LINKS = (
    "https://github.com/LINs-lab/CollabEdit",
    "https://github.com/Jianrong-Lu/ParaSolver",
    "https://github.com/agiresearch/AIOS-LSFS",
    "https://github.com/bryanbocao/fca",
    "https://github.com/Rezaei-Parham/Mixture-UCB",
    "https://github.com/thu-ml/ReMoE",
    "https://github.com/Master-PLC/FreDF",
    "https://github.com/Eric-qi/NeuroQuant",
)


def test_seed_abstracts_give_exactly_the_eight_links() -> None:
    paragraphs = _seed_paragraphs()
    per_abstract = [extract_github_links(p) for p in paragraphs]
    assert sorted(link for links in per_abstract for link in links) == sorted(SEED_LINKS)
    assert all(len(links) <= 1 for links in per_abstract)


def test_seed_promise_to_release_on_github_is_not_a_link() -> None:
    promises = [p for p in _seed_paragraphs() if "released on GitHub" in p]
    assert promises, "the seed abstract promising a GitHub release is missing"
    assert [extract_github_links(p) for p in promises] == [()] * len(promises)


def test_links_agree_with_the_iclr_github_field() -> None:
    if not ICLR.is_file():
        pytest.skip(f"real data not found at {ICLR} (it lives beside the checkout)")
    agreed = extracted = expected = 0
    with ICLR.open(encoding="utf-8") as lines:
        for line in lines:
            paper = json.loads(line)
            got = {link.lower() for link in extract_github_links(paper["abstract"])}
            want = {link.lower() for link in paper["github"]}
            agreed += len(got & want)
            extracted += len(got)
            expected += len(want)
    assert expected > 700
    assert agreed / extracted >= 0.999, f"precision {agreed}/{extracted}"
    assert agreed / expected >= 0.995, f"recall {agreed}/{expected}"


# --------------------------------------------------------------------------------------
# display_text
# --------------------------------------------------------------------------------------

REQUIRED = [
    (r"$\ell_{2}$", "ℓ₂"),
    (r"\textbf{12.1× speedup}", "12.1× speedup"),
    (r"$O(\frac{1}{T})$", "O(1/T)"),
    (r"\textit{Universality}", "Universality"),
    (r"\emph{weak labelers}", "weak labelers"),
    (r"$\mathcal{O}(n^2)$", "𝒪(n²)"),
    (
        r"$\alpha \beta \gamma \delta \epsilon \theta \lambda \mu \pi \sigma \tau \phi \omega$",
        "α β γ δ ε θ λ μ π σ τ φ ω",
    ),
    (r"$\Gamma \Delta \Theta \Lambda \Xi \Pi \Sigma \Phi \Psi \Omega$", "Γ Δ Θ Λ Ξ Π Σ Φ Ψ Ω"),
    (r"\times\leq\geq\approx\sim\infty\rightarrow\to\cdot\pm\in", "×≤≥≈~∞→→·±∈"),
    (r"$\sqrt{x}$, $\sqrt{KT}$", "√x, √(KT)"),
    (r"$\mathbb{R}^d$", "ℝᵈ"),
    (r"\url{https://example.org/a\_b}", "https://example.org/a_b"),
    (r"\href{https://example.org}{the site}", "the site (https://example.org)"),
    (r"50\% R\&D snake\_case \{a\}", "50% R&D snake_case {a}"),
    ("Figure~1 and i.e.~allowing", "Figure 1 and i.e. allowing"),
    ("pages 1--2 and yes---no", "pages 1–2 and yes—no"),
    ("a ``stepping-stone'' text", "a “stepping-stone” text"),
    (r"\underline{T}ool", "Tool"),
    (r"{$\tau$}-bench", "τ-bench"),
    ("costs $5 million", "costs $5 million"),
    ("between $5 and $10 per hour", "between $5 and $10 per hour"),
    ("prices $5,$6 and $7", "prices $5,$6 and $7"),
    ("under $600.\n\nVanilla SFT", "under $600.\n\nVanilla SFT"),
    ("paradigm&#151;pretraining, Tom &amp; Jerry", "paradigm—pretraining, Tom & Jerry"),
]

GOLDEN = [
    # titles
    (
        r"{$\tau$}-bench: A Benchmark for \underline{T}ool-\underline{A}gent-\underline{U}ser"
        " Interaction",
        "τ-bench: A Benchmark for Tool-Agent-User Interaction",
    ),
    (r"Optimizing $(L_0, L_1)$-Smooth Functions", "Optimizing (L₀, L₁)-Smooth Functions"),
    (r"Uni$^2$Det: Unified", "Uni²Det: Unified"),
    (r"$\text{I}^2\text{AM}$: Interpreting", "I²AM: Interpreting"),
    (r"Adam Exploits $\ell_\infty$-geometry", "Adam Exploits ℓ_∞-geometry"),
    (r"Co$^{\mathbf{3}}$Gesture: Towards", "Co³Gesture: Towards"),
    ("Do LLMs ``know'' internally", "Do LLMs “know” internally"),
    # abstracts: math
    (
        r"$\alpha=\Tilde{O}(\frac{1}{n^{1/3}}+(\frac{\sqrt{d}}{n\epsilon})^{3/7})$",
        "α=Õ(1/n^(1/3)+(√d/(nε))^(3/7))",
    ),
    (
        r"a matrix product, $\bv{A}^T\bv{B}$, based on small space sketches $\mathcal{S}(\bv{A})$",
        "a matrix product, AᵀB, based on small space sketches 𝒮(A)",
    ),
    (r"(Greg $\not\leftrightarrow$ physicist)", "(Greg ↮ physicist)"),
    (
        r"$\mathcal{O}\left(\frac{d}{d^\star} \cdot g(k, d^\star) + d^2\right)$, where",
        "𝒪(d/d⋆ · g(k, d⋆) + d²), where",
    ),
    (
        r"$\widetilde{\mathcal{O}}\left(\sqrt{d_{\mathrm{eluder}}(\mathcal{F})"
        r" \log(\mathcal{F}) T }\right)$",
        "𝒪̃(√(d_(eluder)(ℱ) log(ℱ) T))",
    ),
    (r"regret of $\tilde O(\epsilon^{-2})$;", "regret of Õ(ε⁻²);"),
    (r"$\mathbb{R}^{n \times d}$ and $x_{\theta}$", "ℝ^(n × d) and x_θ"),
    (r"$\sum_{i=1}^n\left(\mathbf{A}_i x_i - b_i\right) = 0$", "∑ᵢ₌₁ⁿ(Aᵢ xᵢ - bᵢ) = 0"),
    (r"reducing FLOPs by $~$44% in", "reducing FLOPs by ~44% in"),
    (
        r"SWIFT can achieve over a $1.3\times$$\sim$$1.6\times$ speedup",
        "SWIFT can achieve over a 1.3×~1.6× speedup",
    ),
    (r"achieving a $\textbf{2.60$\times$}$ speedup", "achieving a 2.60× speedup"),
    (r"$\small {1024 \times 1024}$ image", "1024 × 1024 image"),
    (r"PixArt-$\\alpha$ and $\max \\\{ \eta, \varphi \\\}$", "PixArt-α and max { η, φ }"),
    (r"$ x_t+1 = f(x_t) $, and $ f $ is", "xₜ+1 = f(xₜ), and f is"),
    (r"only $\mathcal{O}(1)$ and $\KSD^2$", "only 𝒪(1) and KSD²"),
    # abstracts: text commands, accents, quotes
    (
        r"we employ Schr\"odinger Bridge for R\'{e}nyi and Mat\'ern",
        "we employ Schrödinger Bridge for Rényi and Matérn",
    ),
    (
        r"allocations have \`maximal' or \`minimal' power",
        "allocations have ‘maximal’ or ‘minimal’ power",
    ),
    (
        r"termed \`\`Composition through Decomposition'', involves",
        "termed “Composition through Decomposition”, involves",
    ),
    (
        r"the PL model using `\emph{Pairwise Rank-Breaking}', which",
        "the PL model using ‘Pairwise Rank-Breaking’, which",
    ),
    (r"requiring only \textasciitilde10 A800 days", "requiring only ~10 A800 days"),
    (
        r"uses \~50% of its compute; between ~15% and ~85% of",
        "uses ~50% of its compute; between ~15% and ~85% of",
    ),
    (r"\ding{182} vision backbone; \ding{183} models", "❶ vision backbone; ❷ models"),
    (
        r"the {\fontfamily{lmtt}\selectfont \textit{supercomputer}} support",
        "the supercomputer support",
    ),
    (
        r"a method for {\em learning-to-fine-tune} (LiFT)",
        "a method for learning-to-fine-tune (LiFT)",
    ),
    (
        r"named \b geometric \b score-based \b black-box \b attack (GSBA$^K$)",
        "named geometric score-based black-box attack (GSBAᴷ)",
    ),
    (
        r"we propose \ours{}, an extension, \algo{CQG-MBQA} and \model~strikes",
        "we propose ours, an extension, CQG-MBQA and model strikes",
    ),
    (
        r"models, \eg, diffusion models (\ie text-based editing)",
        "models, e.g., diffusion models (i.e. text-based editing)",
    ),
    (
        r"proposes \textbf{(1)} in slow mode, $97.6\%$ optimal",
        "proposes (1) in slow mode, 97.6% optimal",
    ),
    (r"Code \& pre-trained models, H\&E stained", "Code & pre-trained models, H&E stained"),
    (
        r"\textit{supercomputer}\footnote{\url{https://x.org/p}} support",
        "supercomputer (https://x.org/p) support",
    ),
    # abstracts: links and Markdown
    (
        r"for FMoW. \href{https://github.com/chi-chi-zx/L2C}{Our Code: L2C}",
        "for FMoW. Our Code: L2C (https://github.com/chi-chi-zx/L2C)",
    ),
    (
        r"available: \href{https://github.com/wkh923/m3pc}{\texttt{https://github.com/wkh923/m3pc}}.",
        "available: https://github.com/wkh923/m3pc.",
    ),
    (
        "available at [https://github.com/LINs-lab/CollabEdit](https://github.com/LINs-lab/CollabEdit).",
        "available at https://github.com/LINs-lab/CollabEdit.",
    ),
    (
        "in the [Mixture-UCB Github repository](https://github.com/Rezaei-Parham/Mixture-UCB).",
        "in the Mixture-UCB Github repository (https://github.com/Rezaei-Parham/Mixture-UCB).",
    ),
    (
        "at [`https://github.com/zhixuan-lin/forgetting-transformer`](https://github.com/zhixuan-lin/forgetting-transformer).",
        "at https://github.com/zhixuan-lin/forgetting-transformer.",
    ),
    (
        "Code available at <https://github.com/aimagelab/mammoth>",
        "Code available at https://github.com/aimagelab/mammoth",
    ),
    ("the last <EOS> token and <sks> dog", "the last <EOS> token and <sks> dog"),
    (
        r"at ~\url{https://github.com/wuhuaijin/HShare}, at https://github.com/katoro8989/tau-Jp_Task_Arithmetic",
        "at https://github.com/wuhuaijin/HShare, at https://github.com/katoro8989/tau-Jp_Task_Arithmetic",
    ),
    (
        "a framework, termed **CAUSM**, for *e.g.* _quantum unitary parameterization_.",
        "a framework, termed CAUSM, for e.g. quantum unitary parameterization.",
    ),
    (
        "we introduce TOMATO, Temp**O**ral Reasoning Multimod**A**l Evalua**T**i**O**n,",
        "we introduce TOMATO, TempOral Reasoning MultimodAl EvaluaTiOn,",
    ),
    (
        "an A* search and Q*-Approximation with LPIPS*/FID",
        "an A* search and Q*-Approximation with LPIPS*/FID",
    ),
    (
        "ensembling -- a paradigm, IB---making predictions",
        "ensembling – a paradigm, IB—making predictions",
    ),
]


@pytest.mark.parametrize(("source", "shown"), REQUIRED + GOLDEN)
def test_display_text_goldens(source: str, shown: str) -> None:
    assert display_text(source) == shown


@pytest.mark.parametrize(
    ("source", "shown"),
    [
        ("  one\n two  \t three \n", "one two three"),
        ("first paragraph\n\nsecond\nline", "first paragraph\n\nsecond line"),
        ("a\n \n\n  \nb", "a\n\nb"),
        ("a\r\n\r\nb\rc", "a\n\nb c"),
        ("\n\n\n", ""),
        ("", ""),
        ("ctrl\x00\x07chars\x1b[31m", "ctrl␀␇chars␛[31m"),  # shown, not obeyed nor hidden
    ],
)
def test_display_text_normalises_whitespace_and_keeps_paragraphs(source: str, shown: str) -> None:
    assert display_text(source) == shown


@pytest.mark.parametrize(
    ("source", "shown"),
    [
        (r"$x^{n+1}$ $W^\top$ $90^\circ$ $f'(x)$", "xⁿ⁺¹ Wᵀ 90° f′(x)"),
        (r"$a_{ij}$ $a_{i,j}$ $p_\theta$ $2^{0.5}$", "aᵢⱼ a_(i,j) p_θ 2^(0.5)"),
        (r"$\sqrt[3]{x}$ $\frac{a+b}{c}$ $\binom{n}{k}$", "∛x (a+b)/c C(n, k)"),
        (r"$\hat{x}$ $\bar{y}$ $\tilde{O}(1)$ $\mathfrak{p}$", "x̂ ȳ Õ(1) 𝔭"),
        (r"$\|x\|_2$ $p\in[0,1]$ $\log\log n$ $\max_{i} x_i$", "‖x‖₂ p ∈ [0,1] log log n maxᵢ xᵢ"),
        (r"$\operatorname{argmax}_x f(x)$ and $\text{where } y$", "argmaxₓ f(x) and where y"),
    ],
)
def test_display_text_scripts_and_math_constructs(source: str, shown: str) -> None:
    assert display_text(source) == shown


@pytest.mark.parametrize(
    ("source", "shown"),
    [
        ("Tom &amp; Jerry &lt;3 &#151; &#x3B1; &eacute;", "Tom & Jerry <3 — α é"),
        ("AT&T R&D &notanentity; &", "AT&T R&D &notanentity; &"),
    ],
)
def test_display_text_decodes_only_real_html_entities(source: str, shown: str) -> None:
    assert display_text(source) == shown


@pytest.mark.parametrize(
    ("source", "shown"),
    [
        (r"a\textendash b", "a–b"),  # main: "a– b", the space TeX's control word ends with
        (r"1990\textendash 2000 and self\textemdash  supervised", "1990–2000 and self—supervised"),
        (r"\textquotedblleft plain\textquotedblright\ words", "“plain” words"),
        (r"30\textdegree\ C, 5 \textmu m and \texteuro 5", "30° C, 5 µm and €5"),
        # a group, or ``\ ``, keeps the space; so does a space before the command
        (r"a \textendash{} b, a\textendash{} b, a\textendash\ b", "a – b, a– b, a– b"),
        # a dash after a space: one on each side, as its author meant (ICLR 2025's
        # ``OD flows \textemdash commuting``), not TeX's ``a –b``
        (r"a \textendash b, flows \textemdash  commuting", "a – b, flows — commuting"),
        # not words (an author's macro, ``\LaTeX``, ``\eg``), nor math's symbols in text, nor
        # (yet) what names hold: a first author read anew would move a title-only paper's id
        (r"Stra\ss e, O\textquoteright Brien", "Straß e, O’ Brien"),
        (r"\LaTeX is \eg the \alpha value \model here", "LaTeX is e.g. the α value model here"),
        (r"$a \leq b$ and $\alpha x$", "a ≤ b and αx"),
    ],
)
def test_display_text_a_text_symbols_control_word_ends_at_its_space(
    source: str, shown: str
) -> None:
    """TeX reads the spaces after a control word as its end (``\\textendash b`` is ``–b``),
    for the text symbols LaTeX sets (dashes, quotes, ``\\ss``, ``\\o``, ``\\textmu``)."""
    assert display_text(source) == shown


def test_display_text_is_fast_on_the_real_file() -> None:
    if not ICLR.is_file():
        pytest.skip(f"real data not found at {ICLR} (it lives beside the checkout)")
    with ICLR.open(encoding="utf-8") as lines:
        papers = [json.loads(line) for line in lines]
    # CPU time, not the clock's: a guard against a quadratic reader (about 0.4 s here), not a
    # figure; the suite's other workers took 5 s of the clock from it once
    start = time.process_time()
    shown = [display_text(p["abstract"]) for p in papers]
    elapsed = time.process_time() - start
    assert len(shown) == 3703 and all(shown)
    assert elapsed < 4.0, f"{elapsed:.2f} s of CPU for {len(papers)} abstracts"
    leftovers = [s for s in shown if re.search(r"\\(?:frac|mathcal|textbf|emph|url)\b", s)]
    assert leftovers == []


HOSTILE = [
    "$5 ",
    "{",
    "}",
    "{x",
    "\\",
    "\\hat",
    "$x^",
    "^_",
    "**a ",
    "*a ",
    "_a ",
    "`",
    "''",
    "[a](",
    "&#151;",
    "https:// ",
    "github.com/a/",
    "--",
    "~",
    "$\\frac{",
    "\\sqrt[",
    "\\url{",
    "$$",
    "x_{",
    "\\textbf{",
    "a b ",
]


@pytest.mark.parametrize("unit", HOSTILE)
def test_two_megabytes_of_hostile_markup_render_quickly(unit: str) -> None:
    text = (unit * (2_000_000 // len(unit) + 1))[:2_000_000]
    start = time.process_time()  # CPU time, as for the real abstracts above
    shown = display_text(text)
    links = extract_github_links(text)
    key = normalize_key(text)
    assert time.process_time() - start < 3.0
    assert isinstance(shown, str) and isinstance(links, tuple) and isinstance(key, str)


def test_two_megabytes_of_prose_still_render_their_markup() -> None:
    prose = "Plain words of an abstract, " * 40  # about as dense in markup as real abstracts
    snippet = prose + r"reaching $\mathcal{O}(n^2)$ time. "
    text = snippet * (2_000_000 // len(snippet))
    start = time.process_time()  # CPU time, as for the real abstracts above
    shown = display_text(text)
    assert time.process_time() - start < 3.0
    assert "\\" not in shown and "$" not in shown
    assert shown.endswith("abstract, reaching 𝒪(n²) time.")


def test_text_dense_with_markup_beyond_the_budget_is_shown_plain() -> None:
    text = r"$\alpha$ " * 30_000 + "\n\nend"
    assert display_text(text) == " ".join([r"$\alpha$"] * 30_000) + "\n\nend"
    assert display_text(r"$\alpha$ " * 3_000) == " ".join(["α"] * 3_000)


@pytest.mark.parametrize(
    "text",
    [
        "{" * 9_000 + "x" + "}" * 9_000,
        "$" + "\\hat" * 4_000 + "x$",
        "$" + "\\frac{" * 3_000 + "}" * 6_000 + "$",
        "$x" + "^{" * 9_000 + "$",
        "\\textbf{" * 9_000,
        "\\sqrt" * 9_000 + "x",
    ],
)
def test_deep_nesting_neither_recurses_too_far_nor_raises(text: str) -> None:
    assert isinstance(cleaning._render(text), str)


# --------------------------------------------------------------------------------------
# Properties: nothing raises, outputs keep their promises
# --------------------------------------------------------------------------------------

MARKUP = st.sampled_from(
    [
        "$",
        "$$",
        "\\",
        "{",
        "}",
        "_",
        "^",
        "~",
        "--",
        "---",
        "``",
        "''",
        "`",
        "'",
        "*",
        "**",
        "[",
        "](",
        ")",
        "<",
        ">",
        "&",
        "&#151;",
        "&amp;",
        "\n",
        "\n\n",
        " ",
        "\\frac",
        "\\sqrt[",
        "\\href",
        "\\url",
        "\\mathcal",
        "\\mathbb",
        "\\text",
        "\\left",
        "\\right.",
        "\\not",
        "\\b",
        '\\"',
        "\\'",
        "\\`",
        "\\~",
        "\\\\",
        "\\ding",
        "\\footnote",
        "\\tilde",
        "x",
        "12",
        "github.com/",
        "https://",
        "www.",
        "a/b",
        ".git",
        "ı",
        "\ue000",
        "\x00",
        "\r",
    ]
)
TEXTS = st.one_of(
    st.text(), st.lists(st.one_of(MARKUP, st.text(max_size=3)), max_size=60).map("".join)
)


@settings(max_examples=400, deadline=None)
@given(TEXTS)
def test_display_text_never_raises_and_is_normalised(text: str) -> None:
    shown = cleaning._render(text)  # without display_text's last-resort fallback
    assert display_text(text) == shown
    assert shown == shown.strip()
    assert "  " not in shown and "\n\n\n" not in shown and "\r" not in shown
    assert all(line for line in shown.split("\n\n")) if shown else True
    assert not any(ch in shown for ch in "\ue000\ue001\x00")


@settings(max_examples=300, deadline=None)
@given(TEXTS)
def test_extract_github_links_never_raises_and_is_canonical(text: str) -> None:
    links = extract_github_links(text)
    assert all(CANONICAL.fullmatch(link) for link in links)
    assert not any(link.lower().endswith((".git", ".")) for link in links)
    assert len({link.lower() for link in links}) == len(links)
    assert extract_github_links(" ".join(links)) == links
    assert all(CANONICAL.fullmatch(link) for link in github_from_code_field(text))


@settings(max_examples=300, deadline=None)
@given(st.text())
def test_normalize_key_never_raises_and_is_stable(text: str) -> None:
    key = normalize_key(text)
    assert all(ch.isalnum() for ch in key)
    assert normalize_key(key) == key
