"""Derived titles (storage/sources/titles.py).

Golden cases use text copied from real ICLR 2025 abstracts, so they run without the data folder;
the seed figure and the whole-corpus checks read ``../shared`` and skip when it is absent.
"""

from __future__ import annotations

import ast
import json
import re
import time
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import storage.sources.titles.tokens as titles_module
from benchmarks.derived_titles import SEED_ARGUABLE, SEED_NAMES
from storage.sources.titles import (
    MAX_TITLE_LENGTH,
    DerivedTitle,
    clean_text,
    derive_title,
    find_introduced_name,
)

SHARED = Path(__file__).resolve().parents[2].parent / "shared"
DATA = SHARED / "data" / "iclr2025.jsonl"
SEEDS = SHARED / "seeds"

# ---------------------------------------------------------------------------------------------
# Real abstracts (copied verbatim from ICLR 2025; the seed lists hold the first few).
# ---------------------------------------------------------------------------------------------

COLLABEDIT = (
    "Collaborative learning of large language models (LLMs) has emerged as a new paradigm for "
    "utilizing private data from different parties to guarantee efficiency and privacy. Meanwhile, "
    "Knowledge Editing (KE) for LLMs has also garnered increased attention due to its ability to "
    "manipulate the behaviors of LLMs explicitly, yet leaves the collaborative KE case—in which "
    "knowledge edits of multiple parties are aggregated in a privacy-preserving and continual "
    "manner—unexamined. To this end, this manuscript dives into the first investigation of "
    "collaborative KE, in which we start by carefully identifying the unique three challenges "
    "therein, including knowledge overlap, knowledge conflict, and knowledge forgetting. We then "
    "propose a non-destructive collaborative KE framework, COLLABEDIT, which employs a novel model "
    "merging mechanism to mimic the global KE behavior while preventing the severe performance "
    "drop. Extensive experiments on two canonical datasets demonstrate the superiority of "
    "COLLABEDIT compared to other destructive baselines, and results shed light on addressing "
    "three collaborative KE challenges and future applications. Our code is available at "
    "[https://github.com/LINs-lab/CollabEdit](https://github.com/LINs-lab/CollabEdit)."
)
COLLABEDIT_REPO = ["https://github.com/LINs-lab/CollabEdit"]

PARASOLVER = (
    "This paper explores the challenge of accelerating the sequential inference process of "
    "Diffusion Probabilistic Models (DPMs). We tackle this critical issue from a dynamic systems "
    "perspective, in which the inherent sequential nature is transformed into a parallel sampling "
    "process. Specifically, we propose a unified framework that generalizes the sequential "
    "sampling process of DPMs as solving a system of banded nonlinear equations. Under this "
    "generic framework, we reveal that the Jacobian of the banded nonlinear equations system "
    "possesses a unit-diagonal structure, enabling further approximation for acceleration. "
    "Moreover, we theoretically propose an effective initialization approach for parallel "
    "sampling methods. Finally, we construct \\textit{ParaSolver}, a hierarchical parallel "
    "sampling technique that enhances sampling speed without compromising quality. Extensive "
    "experiments show that ParaSolver achieves up to \\textbf{12.1× speedup} in terms of "
    "wall-clock time. The source code is publicly available at "
    "https://github.com/Jianrong-Lu/ParaSolver.git."
)

HELMET = (
    "Many benchmarks exist for evaluating long-context language models (LCLMs), yet developers "
    "often rely on synthetic tasks such as needle-in-a-haystack (NIAH) or an arbitrary subset of "
    "tasks. However, it remains unclear whether these benchmarks reflect the diverse downstream "
    "applications of LCLMs, and such inconsistencies further complicate model comparison. We "
    "investigate the underlying reasons behind these practices and find that existing benchmarks "
    "often provide noisy signals due to limited coverage of applications, insufficient context "
    "lengths, unreliable metrics, and incompatibility with base models. In this work, we "
    "introduce HELMET (How to Evaluate Long-context Models Effectively and Thoroughly), a "
    "comprehensive benchmark encompassing seven diverse, application-centric categories. We also "
    "address several issues in previous benchmarks by adding controllable lengths up to 128K "
    "tokens, model-based evaluation for reliable metrics, and few-shot prompting for robustly "
    "evaluating base models. Consequently, we demonstrate that HELMET offers more reliable and "
    "consistent rankings of frontier LCLMs."
)

CUSP = (
    "Can integrating spectral and curvature signals unlock new potential in graph representation "
    "learning? Non-Euclidean geometries, particularly Riemannian manifolds such as hyperbolic "
    "(negative curvature) and spherical (positive curvature), offer powerful inductive biases for "
    "embedding complex graph structures like scale-free, hierarchical, and cyclic patterns. "
    "Meanwhile, spectral filtering excels at processing signal variations across graphs, making "
    "it effective in homophilic and heterophilic settings. Leveraging both can significantly "
    "enhance the learned representations. To this end, we propose Spectro-Riemannian Graph Neural "
    "Networks (CUSP) - the first graph representation learning paradigm that unifies both "
    "CUrvature (geometric) and SPectral insights. CUSP is a mixed-curvature spectral GNN that "
    "learns spectral filters to optimize node embeddings in products of constant curvature "
    "manifolds (hyperbolic, spherical, and Euclidean)."
)

ORW_CFM_W2 = (
    "Recent advancements in reinforcement learning (RL) have achieved great success in "
    "fine-tuning diffusion-based generative models. However, fine-tuning continuous flow-based "
    "generative models to align with arbitrary user-defined reward functions remains "
    "challenging, particularly due to issues such as policy collapse from overoptimization and "
    "the prohibitively high computational cost of likelihoods in continuous-time flows. In this "
    "paper, we propose an easy-to-use and theoretically sound RL fine-tuning method, which we "
    "term Online Reward-Weighted Conditional Flow Matching with Wasserstein-2 Regularization "
    "(ORW-CFM-W2). Our method integrates RL into the flow matching framework to fine-tune "
    "generative models with arbitrary reward functions, without relying on gradients of rewards "
    "or filtered datasets."
)

TAR = (
    "Rapid advances in the capabilities of large language models (LLMs) have raised widespread "
    "concerns regarding their potential for malicious use. Open-weight LLMs present unique "
    "challenges, as existing safeguards lack robustness to tampering attacks that modify model "
    "weights. For example, recent works have demonstrated that refusal and unlearning safeguards "
    "can be trivially removed with a few steps of fine-tuning. These vulnerabilities necessitate "
    "new approaches for enabling the safe release of open-weight LLMs. We develop a method, "
    "called TAR, for building tamper-resistant safeguards into open-weight LLMs such that "
    "adversaries cannot remove the safeguards even after hundreds of steps of fine-tuning."
)

CONGO = (
    "We address the challenge of zeroth-order online convex optimization where the objective "
    "function's gradient exhibits sparsity, indicating that only a small number of dimensions "
    "possess non-zero gradients. We tackle this problem by introducing the Compressive Online "
    "Gradient Optimization framework which allows compressive sensing methods previously applied "
    "to stochastic optimization to achieve regret bounds with an optimal dependence on the time "
    "horizon without the full problem dimension appearing in the bound. Numerical simulations "
    "and real-world microservices benchmarks demonstrate CONGO's superiority over gradient "
    "descent approaches that do not account for sparsity."
)

ZIP = (
    "Recent studies have introduced various approaches for prompt-tuning black-box "
    "vision-language models, referred to as black-box prompt-tuning (BBPT). While BBPT has "
    "demonstrated considerable potential, it is often found that many existing methods require an "
    "excessive number of queries (i.e., function evaluations), which poses a significant "
    "challenge in real-world scenarios where the number of allowed queries is limited. To tackle "
    "this issue, we propose Zeroth-order Intrinsic-dimensional Prompt-tuning (ZIP), a novel "
    "approach that enables efficient and robust prompt optimization in a purely black-box "
    "setting. The key idea of ZIP is to reduce the problem dimensionality and the variance of "
    "zeroth-order gradient estimates, such that the training is done fast with far less queries."
)

POLICY_GRADIENT = (
    "We present the first comprehensive finite-time global convergence analysis of policy "
    "gradient for infinite horizon average reward Markov decision processes (MDPs). Specifically, "
    "we focus on ergodic tabular MDPs with finite state and action spaces. Our analysis shows that "
    "the policy gradient iterates converge to the optimal policy at a sublinear rate of "
    "$O(\\frac{1}{T})$, where $T$ represents the number of iterations. Performance bounds for "
    "discounted reward MDPs cannot be easily extended to average reward MDPs as the bounds grow "
    "proportional to the fifth power of the effective horizon."
)

TEST_OF_TIME = (
    "Large language models (LLMs) have showcased remarkable reasoning capabilities, yet they "
    "remain susceptible to errors, particularly in temporal reasoning tasks involving complex "
    "temporal logic. Existing research has explored LLM performance on temporal reasoning using "
    "diverse datasets and benchmarks. However, these studies often rely on real-world data that "
    "LLMs may have encountered during pre-training or employ anonymization techniques that can "
    "inadvertently introduce factual inconsistencies. In this work, we address these limitations "
    "by introducing novel synthetic datasets specifically designed to assess LLM temporal "
    "reasoning abilities in various scenarios."
)

UNIINF = (
    "In this paper, we present a novel algorithm, `uniINF`, for the Heavy-Tailed Multi-Armed "
    "Bandits (HTMAB) problem, demonstrating robustness and adaptability in both stochastic and "
    "adversarial environments. Our novel algorithm `uniINF` enjoys the so-called "
    "Best-of-Both-Worlds (BoBW) property, performing optimally in both stochastic and adversarial "
    "environments *without* knowing the exact environment type."
)

TETSPHERE = (
    "We introduce TetSphere Splatting, a Lagrangian geometry representation designed for "
    "high-quality 3D shape modeling. TetSphere splatting leverages an underused yet powerful "
    "geometric primitive -- volumetric tetrahedral meshes."
)

DATA_TAGGANTS = (
    "Most importantly, previous approaches lack guarantee against false positives.\\\n"
    "This paper introduces *data taggants*, a novel non-backdoor dataset ownership verification "
    "technique.\nOur method uses pairs of out-of-distribution samples and random labels as "
    "secret *keys*."
)


# ---------------------------------------------------------------------------------------------
# Golden cases.
# ---------------------------------------------------------------------------------------------


def test_repo_casing_wins_and_defined_acronyms_are_spelled_out() -> None:
    derived = derive_title(COLLABEDIT, COLLABEDIT_REPO)
    assert derived == DerivedTitle(
        "CollabEdit: non-destructive collaborative knowledge editing framework", "CollabEdit"
    )


def test_without_the_repo_the_abstract_casing_is_kept() -> None:
    assert find_introduced_name(COLLABEDIT) == "COLLABEDIT"


def test_latex_and_urls_are_stripped_from_a_named_title() -> None:
    derived = derive_title(PARASOLVER, ["https://github.com/Jianrong-Lu/ParaSolver"])
    assert derived.name == "ParaSolver"
    assert derived.title == "ParaSolver: hierarchical parallel sampling technique"


def test_name_with_spelled_out_expansion() -> None:
    derived = derive_title(HELMET)
    assert derived.title == "HELMET: How to Evaluate Long-context Models Effectively and Thoroughly"
    assert derived.name == "HELMET"


def test_acronym_whose_letters_do_not_spell_its_long_form() -> None:
    derived = derive_title(CUSP)
    assert derived.name == "CUSP"
    assert derived.title.startswith("CUSP: Spectro-Riemannian Graph Neural Networks")


def test_which_we_term() -> None:
    derived = derive_title(ORW_CFM_W2)
    assert derived.name == "ORW-CFM-W2"
    assert derived.title == (
        "ORW-CFM-W2: Online Reward-Weighted Conditional Flow Matching with Wasserstein-2 "
        "Regularization"
    )


def test_called_name_gets_the_noun_phrase_around_it() -> None:
    derived = derive_title(TAR)
    assert derived.name == "TAR"
    assert derived.title.startswith("TAR: method for building tamper-resistant safeguards into")


def test_acronym_spelled_by_an_introduced_phrase() -> None:
    derived = derive_title(CONGO)
    assert derived == DerivedTitle("CONGO: Compressive Online Gradient Optimization", "CONGO")


def test_field_acronym_of_earlier_work_is_not_the_name() -> None:
    # "Recent studies ... referred to as black-box prompt-tuning (BBPT)" is someone else's term.
    assert find_introduced_name(ZIP) == "ZIP"
    assert derive_title(ZIP).title == "ZIP: Zeroth-order Intrinsic-dimensional Prompt-tuning"


def test_no_name_gives_the_contribution_clause() -> None:
    derived = derive_title(POLICY_GRADIENT)
    assert derived.name == ""
    assert derived.title.startswith("Finite-time global convergence analysis of policy gradient")
    assert "MDPs" in derived.title  # the long form is contracted back to fit
    assert len(derived.title) <= MAX_TITLE_LENGTH


def test_contribution_after_by_introducing() -> None:
    derived = derive_title(TEST_OF_TIME)
    assert derived.name == ""
    assert derived.title.startswith("Synthetic datasets specifically designed to assess LLM")
    assert not derived.title.startswith("Large language models")


def test_so_called_property_is_not_the_name() -> None:
    derived = derive_title(UNIINF)
    assert derived.name == "uniINF"
    assert "`" not in derived.title
    assert derived.title == "uniINF: algorithm for the Heavy-Tailed Multi-Armed Bandits problem"


def test_multi_word_name() -> None:
    derived = derive_title(TETSPHERE)
    assert derived.name == "TetSphere Splatting"
    assert derived.title.startswith("TetSphere Splatting: Lagrangian geometry representation")


def test_lower_case_name_is_title_cased() -> None:
    derived = derive_title(DATA_TAGGANTS)
    assert derived.name == "Data Taggants"
    assert derived.title == ("Data Taggants: non-backdoor dataset ownership verification technique")


@pytest.mark.parametrize(
    "abstract",
    [
        "Large language models (LLMs) are trained with RLHF and evaluated on MMLU and GPT-4 "
        "judges. We study why LLMs forget, and show that SFT on ImageNet-style data does not help.",
        "We analyse policy gradient in Markov decision processes (MDPs) and prove that PPO and "
        "SAC converge on CIFAR-10. Our results hold for MDPs with finite horizons.",
        "We use Adam, a popular optimizer, and GPT-4o, a widely used model, to study in-context "
        "learning (ICL) in Transformers.",
        "Existing methods such as LoRA and DoRA, which were proposed by prior work, reduce memory. "
        "We study their limits theoretically.",
        # Real sentences (ICLR 2025) where field vocabulary sits in an introducing pattern:
        "Offline model-based reinforcement learning (RL) offers a principled approach to using a "
        "learned dynamics model as a simulator to optimize a control policy.",
        "We then propose a novel implicitly-defined GNN architecture, which we call an energy GNN.",
        "We provide a parallelized GPU implementation of this regularizer, and prove that "
        "gradients are continuous for smooth densities.",
    ],
)
def test_acronyms_a_paper_merely_uses_are_not_names(abstract: str) -> None:
    assert find_introduced_name(abstract) == ""
    assert derive_title(abstract).name == ""


def test_generic_opening_sentence_loses_to_the_contribution() -> None:
    abstract = (
        "Large language models have shown remarkable abilities across many tasks. However, their "
        "calibration remains poorly understood. In this paper, we study the calibration of "
        "instruction-tuned language models under distribution shift."
    )
    title = derive_title(abstract).title
    assert title == "Calibration of instruction-tuned language models under distribution shift"


def test_long_phrase_is_cut_on_a_word_boundary() -> None:
    abstract = (
        "We propose FooNet, a "
        + " ".join(f"word{i}" for i in range(60))
        + " architecture for everything."
    )
    derived = derive_title(abstract)
    assert derived.name == "FooNet"
    assert len(derived.title) <= MAX_TITLE_LENGTH
    assert derived.title.endswith("…")
    assert re.search(r"word\d+…$", derived.title)  # whole words only


def test_blank_abstract() -> None:
    assert derive_title("") == DerivedTitle("", "")
    assert derive_title("  \n\t ") == DerivedTitle("", "")
    assert find_introduced_name("   ") == ""


def test_markup_only_abstract_still_gets_a_title() -> None:
    assert derive_title("$$").title
    assert derive_title("\\textbf{}").title
    assert derive_title("https://github.com/a/b").title


def test_clean_text_strips_markup() -> None:
    text = clean_text(
        "See [our code](https://github.com/a/b) and \\textbf{12.1× speedup} with $\\ell_{2}$ "
        "loss, **bold** and `code`, &#151; done at <https://github.com/x/y>."
    )
    assert "http" not in text and "\\" not in text and "*" not in text and "`" not in text
    assert "our code" in text and "12.1× speedup" in text and "bold" in text


def test_module_is_stdlib_only() -> None:
    tree = ast.parse(Path(titles_module.__file__).read_text(encoding="utf-8"))
    imported = {
        (node.module or "").split(".")[0]
        for node in ast.walk(tree)
        if isinstance(node, ast.ImportFrom)
    } | {
        alias.name.split(".")[0]
        for node in ast.walk(tree)
        if isinstance(node, ast.Import)
        for alias in node.names
    }
    assert imported <= {
        "__future__",
        "collections",
        "dataclasses",
        "functools",
        "html",
        "re",
        "unicodedata",
    }


# ---------------------------------------------------------------------------------------------
# Robustness: huge and hostile inputs finish fast (no catastrophic backtracking).
# ---------------------------------------------------------------------------------------------

HOSTILE = [
    "We propose FooBar, a method (ABC) for x. " + "word " * 40 + "a (b c) " * 20,
    "(" * 50,
    "$" * 50,
    "\\a{" * 50,
    "*a" * 50,
    "_a_ " * 50,
    "[x](" * 50,
    "AB-CD " * 50,
    "a" * 200,
    "We propose " + "A" * 200 + ", a ",
    "called " * 50,
    "https://github.com/" * 30,
]


@pytest.mark.parametrize("unit", HOSTILE, ids=range(len(HOSTILE)))
def test_two_megabyte_paragraph_is_fast(unit: str) -> None:
    text = (unit * (2_000_000 // len(unit) + 1))[:2_000_000]
    start = time.process_time()  # CPU time: a guard against slow patterns, not a figure
    derived = derive_title(text)
    elapsed = time.process_time() - start
    assert elapsed < 2.0, f"{elapsed:.2f} s"
    assert 0 < len(derived.title) <= MAX_TITLE_LENGTH


# ---------------------------------------------------------------------------------------------
# Property tests.
# ---------------------------------------------------------------------------------------------

FRAGMENTS = st.sampled_from(
    [
        "We propose ",
        "we introduce ",
        "In this paper, ",
        "called ",
        "named ",
        "which we term ",
        "FooBar",
        "COLLABEDIT",
        "ParaSolver",
        "LLMs",
        "GPT-4",
        "(ABC)",
        "(Long Form Here)",
        ", a ",
        "novel framework",
        " for ",
        "the ",
        ". ",
        ", ",
        ": ",
        " - ",
        "—",
        "(",
        ")",
        "[",
        "]",
        "$\\ell_{2}$",
        "$",
        "\\textbf{",
        "\\emph{x}",
        "}",
        "{",
        "**",
        "*",
        "_",
        "`",
        "&#151;",
        "https://github.com/a/b",
        "[t](https://x.y/z)",
        "<https://github.com/q/r>",
        "e.g. ",
        "i.e., ",
        "\n",
        "\n\n",
        "\t",
        " ",
        "ﬁ",
        "é",
        "Σ",
        "\x00",
        "\u200b",
        "😀",
        "1.5",
        "x" * 30,
    ]
)
ABSTRACTS = st.one_of(st.text(max_size=400), st.lists(FRAGMENTS, max_size=60).map("".join))
REPOS = st.lists(
    st.one_of(
        st.text(max_size=30),
        st.sampled_from(["https://github.com/a/FooBar", "https://github.com/LINs-lab/CollabEdit"]),
    ),
    max_size=3,
)


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(ABSTRACTS, REPOS)
def test_any_text_gives_a_bounded_title(abstract: str, github: list[str]) -> None:
    derived = derive_title(abstract, github)
    assert isinstance(derived, DerivedTitle)
    assert len(derived.title) <= MAX_TITLE_LENGTH
    if abstract.strip():
        assert derived.title.strip()
    else:
        assert derived == DerivedTitle("", "")
    assert not any(ch in derived.title for ch in "\n\r\t\x00")
    assert derived.name == find_introduced_name(abstract, github)
    assert derive_title(abstract, github) == derived  # deterministic


@settings(max_examples=300, deadline=None)
@given(ABSTRACTS, REPOS)
def test_a_name_comes_from_the_text_or_a_repo(abstract: str, github: list[str]) -> None:
    derived = derive_title(abstract, github)
    if not derived.name:
        return
    key = re.sub(r"[\W_]+", "", derived.name.casefold())
    text_key = re.sub(r"[\W_]+", "", clean_text(abstract).casefold())
    repo_keys = {
        re.sub(r"[\W_]+", "", str(g).rstrip("/").rsplit("/", 1)[-1].casefold()) for g in github
    }
    assert key in text_key or key in repo_keys
    if len(derived.name) <= MAX_TITLE_LENGTH // 2 - 2:
        assert derived.title.startswith(derived.name)


# ---------------------------------------------------------------------------------------------
# Real data: the seed figure and whole-corpus checks (skipped without ../shared).
# ---------------------------------------------------------------------------------------------

# Seed papers that introduce a name (and the arguable one), judged once for the benchmark too.


def _norm(text: str) -> str:
    return re.sub(r"[^0-9a-z]", "", text.casefold())


@pytest.fixture(scope="module")
def records() -> list[dict[str, Any]]:
    if not DATA.exists():
        pytest.skip(f"real data not found at {DATA} (only CI and dev machines have ../shared)")
    with DATA.open(encoding="utf-8") as fh:
        return [json.loads(line) for line in fh if line.strip()]


@pytest.fixture(scope="module")
def seeds(records: list[dict[str, Any]]) -> list[tuple[str, dict[str, Any]]]:
    if not SEEDS.is_dir():
        pytest.skip(f"seed lists not found at {SEEDS}")
    by_abstract = {_norm(str(r["abstract"])): r for r in records}
    out = []
    for path in sorted(SEEDS.glob("*.txt")):
        paragraphs = [
            p.strip() for p in re.split(r"\n\s*\n", path.read_text(encoding="utf-8")) if p.strip()
        ]
        for abstract in paragraphs[1:]:  # the first paragraph is the header line
            out.append((abstract, by_abstract[_norm(abstract)]))
    assert len(out) == 38
    return out


def test_seed_titles_name_the_introduced_method(
    seeds: list[tuple[str, dict[str, Any]]],
) -> None:
    named = hits = false_names = 0
    misses = []
    for abstract, record in seeds:
        title = str(record["title"])
        derived = derive_title(abstract, [str(g) for g in record["github"]])
        expected = SEED_NAMES.get(title)
        if expected is not None:
            named += 1
            if any(_norm(n) in _norm(derived.title) for n in expected):
                hits += 1
            else:
                misses.append((title, derived.title))
        elif title not in SEED_ARGUABLE and derived.name:
            false_names += 1
    assert named == 23
    assert hits / named >= 0.9, misses
    assert false_names <= 1


def test_seed_titles_match_their_repos(seeds: list[tuple[str, dict[str, Any]]]) -> None:
    for abstract, record in seeds:
        if str(record["title"]).startswith("CollabEdit"):
            derived = derive_title(abstract, [str(g) for g in record["github"]])
            assert derived.title.startswith("CollabEdit: ")


def test_real_corpus_recall_false_names_and_lengths(records: list[dict[str, Any]]) -> None:
    labelled = correct = unlabelled = false_names = 0
    for record in records:
        abstract, title = str(record["abstract"]), str(record["title"])
        derived = derive_title(abstract, [str(g) for g in record["github"]])
        assert 0 < len(derived.title) <= MAX_TITLE_LENGTH, title
        match = re.match(r"^([^:]{1,60}?)\s*:\s", title)
        if match:
            prefix = match.group(1).strip()
            if prefix.casefold() in abstract.casefold():
                labelled += 1
                correct += derived.name.casefold() == prefix.casefold()
        else:
            unlabelled += 1
            false_names += bool(derived.name) and _norm(derived.name) not in _norm(title)
    assert correct / labelled >= 0.72
    # An upper bound on false names: most of these are names the real title just does not use.
    assert false_names / unlabelled <= 0.5


def test_a_repo_name_outside_githubs_syntax_is_not_a_name() -> None:
    # found by hypothesis: a control character in a "repo" became the name but not the title
    derived = derive_title("A0", ["A0\x1f\x1b"])
    assert derived.name == "" or derived.title.startswith(derived.name)
    assert "\x1f" not in derived.name
