"""The learned agent's model (the agent `learned`), written by `workbench train-agent
--learned`: do not edit by hand, train again.

Command: workbench train-agent --learned --games 9 --teacher search:budget=16 --against heuristic
--boards
kings-crossing,gold-rush,three-hills,four-banners,zwei-burgen,drowned-sanctum,tyrants-throne --seed
16 --holdout 3 --l2 1
Commit: 9a36a4a, 2026-12-01
Data: 63 recorded games on kings-crossing, gold-rush, three-hills, four-banners, zwei-burgen,
drowned-sanctum, tyrants-throne.
Agreement with the teacher: 76.8% of 3459 held-out decisions (training 76.1% of 7150); the
heuristic's best action 77.2%; the teacher's choice outside the candidates 5.8%.

COEF: a conditional logit's coefficient for each feature of
`engine.agents.learned.FEATURES` (unscaled: a candidate's score is the sum of
coefficient times feature).
"""

COEF: dict[str, float] = {
    "gap": 0.0616363,
    "top": 2.20399,
    "k_pass": 0.439343,
    "k_activate": 0.21381,
    "k_move": -0.32602,
    "k_attack": -0.0981911,
    "k_tap": -0.81043,
    "k_unit": 1.7121,
    "k_spell": -0.211076,
    "k_perm": 2.95676,
    "k_free": -0.398408,
    "k_convert": -0.105548,
    "k_other": -1.48358,
    "value": 0.00189555,
    "goal": -0.117918,
    "goal_gain": -0.0243046,
    "risk": -0.00518058,
    "danger": -0.33505,
    "enemies_near": 0.0935638,
    "friends_near": -0.0193527,
    "attack_here": 0.160589,
    "threat": -0.00973619,
    "threat_max": 0.0248423,
    "solo_kill": 0.0872956,
    "cover": -0.0290747,
    "moved": 0.168373,
    "objective_field": 0.227259,
    "exchange": -0.00959366,
    "kill": -0.507993,
    "lose": -0.157067,
    "idle_units": -5.09158e-12,
    "idle_pass": -0.26557,
    "in_danger_now": 0.101243,
    "attack_now": -0.153175,
    "reach_targets": 0.131503,
    "blocking": 0.0798353,
    "resource_after": -0.0613348,
}
