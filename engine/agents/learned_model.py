"""The learned agent's model (the agent `learned`), written by `workbench train-agent
--learned`: do not edit by hand, train again.

Command: workbench train-agent --learned --games 1 --teacher search:budget=16 --against heuristic --boards gold-rush,kings-crossing,three-hills,zwei-burgen,drowned-sanctum --seed 16 --holdout 1 --l2 1
Commit: 2ed0082+, 2026-12-01
Data: 5 recorded games on gold-rush, kings-crossing, three-hills, zwei-burgen, drowned-sanctum.
Agreement with the teacher: 0.0% of 0 held-out decisions (training 80.9% of 577); the heuristic's best action 0.0%; the teacher's choice outside the candidates 0.0%.

COEF: a conditional logit's coefficient for each feature of
`engine.agents.learned.FEATURES` (unscaled: a candidate's score is the sum of
coefficient times feature).
"""

COEF: dict[str, float] = {
    'gap': 0.0575207,
    'top': 2.65456,
    'k_pass': 2.10522,
    'k_activate': 0.413536,
    'k_move': -0.779345,
    'k_attack': -0.207932,
    'k_tap': -0.812972,
    'k_unit': 1.83293,
    'k_spell': -0.468406,
    'k_perm': -1.6504e-12,
    'k_free': -0.260758,
    'k_convert': -0.0902785,
    'k_other': -1.50077,
    'value': 0.00446827,
    'goal': -0.102603,
    'goal_gain': 0.401967,
    'risk': 0.0739116,
    'danger': -0.613332,
    'enemies_near': 0.119395,
    'friends_near': -0.066912,
    'attack_here': 0.272198,
    'threat': -0.0130795,
    'objective_field': 0.118876,
    'exchange': -0.00890554,
    'kill': -0.537134,
    'lose': 0.407969,
    'idle_units': -9.01144e-14,
    'idle_pass': -0.718492,
    'in_danger_now': -0.253805,
    'attack_now': -0.248124,
    'reach_targets': 0.297424,
    'blocking': 0.445076,
    'resource_after': -0.044049,
}
