"""The commitment, the derivation and the checker of revealed records (bot.fairness, bot.verify),
including ``python -m bot.verify`` on good, tampered and bad input."""

from __future__ import annotations

import copy
import io
import json
import random

import pytest

from bot.fairness import (
    FairDeal,
    Input,
    commitment_of,
    derivation_text,
    derive_seed,
    new_server_seed,
    round_seed,
)
from bot.games import game_module
from bot.games.rng import Rng
from bot.verify import (
    BadRecord,
    fair_deal_section,
    main,
    problem_sentence,
    recorded_deals,
    verdict_lines,
    verify_document,
)

SERVER_SEED = "00112233445566778899aabbccddeeff" * 2
INPUTS = [Input("join", "1234567890123456789"), Input("start", "1234567890123456790")]


def test_the_commitment_and_the_seed_are_sha256_of_their_texts():
    assert commitment_of(SERVER_SEED) == "2a8abfa8cb9906290437854193ca6bca41d4d4e26d1d454bd66a35158095e737"
    ids = [i.id for i in INPUTS]
    assert derivation_text(SERVER_SEED, ids) == f"hanafuda-deal-1:{SERVER_SEED}:{ids[0]}:{ids[1]}"
    assert derive_seed(SERVER_SEED, ids) == 2941177456034225765
    assert round_seed(2941177456034225765, 1) == 10632397842578580331


def test_the_seed_depends_on_every_input_and_never_on_the_commitment_alone():
    seed = new_server_seed()
    assert len(seed) == 64 and seed != new_server_seed()
    alone = derive_seed(seed, [])
    assert alone != int(commitment_of(seed)[:16], 16) >> 1  # the public hash gives nothing away
    assert len({alone, derive_seed(seed, ["1"]), derive_seed(seed, ["2"]), derive_seed(seed, ["1", "2"]),
                derive_seed(seed, ["2", "1"])}) == 5
    assert all(0 <= derive_seed(new_server_seed(), ["7"]) < 2**63 for _ in range(50))


def test_a_fair_deal_keeps_its_secret_only_where_it_may_be_known():
    deal = FairDeal.of(SERVER_SEED, INPUTS)
    sealed = deal.sealed()
    assert sealed.server_seed is None and not sealed.revealed and sealed.commitment == deal.commitment
    with pytest.raises(ValueError):
        _ = sealed.seed
    assert deal.after_commitment and not FairDeal.fresh([Input("command", "5")]).after_commitment
    for bad_seed in ("", "ABCDEF" * 11, "0" * 63, SERVER_SEED.upper()):
        with pytest.raises(ValueError):
            FairDeal.of(bad_seed)
    for role, ident in (("press", "5"), ("join", "05"), ("join", "-5"), ("join", 5), ("join", "1" * 21)):
        with pytest.raises(ValueError):
            Input(role, ident)
    assert Input.from_dict({"role": "join", "id": "5"}) == Input("join", "5")
    with pytest.raises(ValueError):
        Input.from_dict(["join", "5"])


def record(game: str = "koikoi", players: int = 2, rules: dict | None = None, *, moves: int = 400,
           deal: FairDeal | None = None, seed: int = 1) -> dict:
    """A record of a match played at random, as /export writes its fair-deal part."""
    module = game_module(game)
    deal = deal or FairDeal.of(SERVER_SEED, INPUTS)
    rules_obj = module.Rules.from_dict(rules or {})
    rng = Rng(seed)
    match = module.new_match(players, rules_obj, deal.seed)
    actions = []
    while not match.is_over and len(actions) < moves:
        legal = match.legal_actions()
        actions.append(str(legal[rng.below(len(legal))]))
        match.apply(actions[-1])
    deals = recorded_deals(lambda: module.new_match(players, rules_obj, deal.seed), actions)
    doc = {"game_id": 3, "game": game, "players": list(range(players)), "rules": rules_obj.to_dict(),
           "seed": deal.seed, "shuffle": match.shuffle, "fair_deal": fair_deal_section(deal, deals)}
    return json.loads(json.dumps(doc))


def test_a_revealed_record_agrees_check_by_check():
    doc = record(rules={"rounds": 3})
    verdict = verify_document(doc)
    assert verdict.agrees and verdict.committed and verdict.after_commitment
    assert verdict.rounds == len({d["round"] for d in doc["fair_deal"]["deals"]}) >= 2
    assert [c.what for c in verdict.checks][:2] == ["commitment", "seed"]
    assert verdict_lines(verdict)[0].startswith("Agree")


@pytest.mark.parametrize("game, players", [("gostop", 3), ("seotda", 4), ("shedding", 5), ("sakura", 7)])
def test_records_of_other_games_agree(game, players):
    assert verify_document(record(game, players)).agrees


def _tampered(change) -> list:
    doc = record(rules={"rounds": 2})
    change(doc)
    verdict = verify_document(doc)
    assert not verdict.agrees and verdict_lines(verdict)[0].startswith("Disagree")
    return [(c.what, c.differs) for c in verdict.checks if not c.ok]


def test_a_changed_server_seed_commitment_seed_or_deal_is_found():
    def seed(doc):
        doc["fair_deal"]["server_seed"] = "f" + doc["fair_deal"]["server_seed"][1:]
    assert _tampered(seed) == [("commitment", ""), ("seed", "")]

    def commitment(doc):
        doc["fair_deal"]["commitment"] = commitment_of("e" * 64)
    assert _tampered(commitment) == [("commitment", "")]

    def match_seed(doc):
        doc["seed"] += 1
    found = _tampered(match_seed)
    assert found[0] == ("seed", "") and ("deal", "stock") in found

    def an_input(doc):
        doc["fair_deal"]["inputs"][0]["id"] = "1234567890123456788"
    assert _tampered(an_input) == [("seed", "")]

    def hand(doc):
        first = doc["fair_deal"]["deals"][0]
        first["hands"][0][0], first["hands"][1][0] = first["hands"][1][0], first["hands"][0][0]
    assert _tampered(hand) == [("deal", "hand")]

    def stock(doc):
        doc["fair_deal"]["deals"][-1]["stock"].reverse()
    assert _tampered(stock) == [("deal", "stock")]

    def table(doc):
        first = doc["fair_deal"]["deals"][0]
        first["table"][0], first["stock"][-1] = first["stock"][-1], first["table"][0]
    assert ("deal", "stock") in _tampered(table)

    def a_round_left_out(doc):
        doc["fair_deal"]["deals"] = [d for d in doc["fair_deal"]["deals"] if d["round"] != 1]
    assert _tampered(a_round_left_out) == [("rounds", "")]


def test_a_game_from_before_commitments_is_not_committed():
    doc = record()
    doc["fair_deal"] = {"committed": False, "deals": doc["fair_deal"]["deals"]}
    verdict = verify_document(doc)
    assert not verdict.agrees and verdict.holds and not verdict.committed
    assert verdict_lines(verdict)[0].startswith("Not committed")
    doc["seed"] = "an old text seed"
    verdict = verify_document(doc)
    assert verdict.checks == [] and verdict_lines(verdict)[0].startswith("Not committed")


def test_a_one_step_start_says_the_bot_knew_its_input():
    doc = record(deal=FairDeal.fresh([Input("command", "77")]))
    verdict = verify_document(doc)
    assert verdict.agrees and not verdict.after_commitment
    assert verdict_lines(verdict)[-1].startswith("Note:")


@pytest.mark.parametrize("change, code", [
    (lambda d: [], "not_a_record"),
    (lambda d: {**d, "game": "chess"}, "unknown_game"),
    (lambda d: {k: v for k, v in d.items() if k != "fair_deal"}, "missing_field"),
    (lambda d: {**d, "rules": {"rounds": "many"}}, "bad_value"),
    (lambda d: {**d, "shuffle": 9}, "bad_value"),
    (lambda d: {**d, "seed": -4}, "bad_value"),
    (lambda d: {**d, "players": [1]}, "bad_value"),
    (lambda d: {**d, "fair_deal": {**d["fair_deal"], "deals": []}}, "missing_field"),
    (lambda d: {**d, "fair_deal": {**d["fair_deal"], "server_seed": "zz"}}, "bad_value"),
    (lambda d: {**d, "fair_deal": {**d["fair_deal"], "inputs": [{"role": "x", "id": "1"}]}}, "bad_value"),
    (lambda d: {**d, "fair_deal": {**d["fair_deal"], "deals": [{**d["fair_deal"]["deals"][0], "deal": 10**6}]}},
     "bad_value"),
    (lambda d: {**d, "fair_deal": {**d["fair_deal"], "deals": [{**d["fair_deal"]["deals"][0], "seats": [5]}]}},
     "bad_value"),
])
def test_what_is_not_a_record_is_refused_in_one_sentence(change, code):
    with pytest.raises(BadRecord) as caught:
        verify_document(change(record(moves=3)))
    assert caught.value.code == code
    sentence = problem_sentence(caught.value)
    assert sentence.endswith(".") and "\n" not in sentence


def test_the_command_line_agrees_disagrees_and_refuses(tmp_path, capsys):
    good = record()
    path = tmp_path / "game.json"
    path.write_text(json.dumps(good))
    assert main([str(path)]) == 0
    out = capsys.readouterr()
    assert out.out.startswith("Agree") and out.err == ""
    bad = copy.deepcopy(good)
    bad["fair_deal"]["deals"][0]["hands"][0].reverse()  # the same cards: still agrees
    bad["fair_deal"]["server_seed"] = "0" * 64
    path.write_text(json.dumps(bad))
    assert main([str(path)]) == 1
    assert capsys.readouterr().out.startswith("Disagree")
    for text, code in (("{", 2), ("[1, 2]", 2), ('{"game": "koikoi"}', 2), ("\ud800", 2)):
        path.write_text(text, encoding="utf-8", errors="surrogatepass")
        assert main([str(path)]) == code
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and "Traceback" not in err
    assert main([str(tmp_path / "missing.json")]) == 2
    assert "can't read" in capsys.readouterr().err
    old = copy.deepcopy(good)
    old["fair_deal"] = {"committed": False, "deals": good["fair_deal"]["deals"]}
    path.write_text(json.dumps(old))
    assert main([str(path)]) == 3


def test_the_command_line_reads_a_record_from_standard_input(monkeypatch, capsys):
    monkeypatch.setattr("sys.stdin", io.StringIO(json.dumps(record())))
    assert main(["-"]) == 0 and capsys.readouterr().out.startswith("Agree")
    monkeypatch.setattr("sys.stdin", io.StringIO("{"))
    assert main(["-"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err


def test_no_mangled_record_gets_a_traceback(tmp_path, capsys):
    """Values swapped for others of every kind, at every depth: an answer, never a traceback."""
    good = record(moves=30)
    shake = random.Random(5)
    odd = [None, True, -1, 2**70, "x", [], {}, [None], {"round": "1"}, 1.5]

    def places(value, path=()):
        yield path
        if isinstance(value, dict):
            for k, v in value.items():
                yield from places(v, (*path, k))
        elif isinstance(value, list):
            for i, v in enumerate(value[:3]):
                yield from places(v, (*path, i))

    spots = list(places(good))[1:]
    path = tmp_path / "mangled.json"
    for _ in range(150):
        doc = copy.deepcopy(good)
        where = shake.choice(spots)
        holder = doc
        for key in where[:-1]:
            holder = holder[key]
        holder[where[-1]] = shake.choice(odd)
        path.write_text(json.dumps(doc))
        assert main([str(path)]) in (0, 1, 2, 3)
        err = capsys.readouterr().err
        assert "Traceback" not in err and err.count("\n") <= 1
