"""The tuned heuristic agent's weights (the agent `tuned`), written by `workbench
train-agent`: do not edit by hand, train again.

Command: workbench train-agent --trials 120 --games 16 --confirm 60 --top 6 --workers 2 --seed 1
--out /work/tmp/tuned_r1.py
Commit: 99fd7d2 with the changes committed as 2e4942a (the trainer's own commit), 2026-12-01
Search: 120 optuna TPE trials (seed 1), 16 games a board each, against heuristic on kings-crossing,
gold-rush, three-hills, four-banners, zwei-burgen, drowned-sanctum, tyrants-throne.
Confirmation on unseen seeds (60 games a board): mean score 0.535; the hand-set weights scored
0.493 on the same seeds.
Wins-draws-losses and the share of decided games won (95% Wilson interval) per board:
kings-crossing 27-1-32, 46% (0.34-0.58); gold-rush 32-0-28, 53% (0.41-0.65); three-hills 32-0-28,
53% (0.41-0.65); four-banners 36-0-24, 60% (0.47-0.71); zwei-burgen 35-0-25, 58% (0.46-0.70);
drowned-sanctum 29-0-31, 48% (0.36-0.61); tyrants-throne 24-18-18, 57% (0.42-0.71).
"""

WEIGHTS: dict[str, float] = {
    "buy_ratio": 0.8520571486215588,
    "buy_raw": 0.8024479598546781,
    "buy_unit": 0.5917836793983587,
    "buy_spell": 0.5585127400875551,
    "buy_other": 0.565788144011253,
    "upkeep_turns": 4.766866483904682,
    "buy_overload": 0.5477892619135027,
    "buy_margin": 0.8149999194432476,
    "buy_save": 2.06600811085709,
    "buy_min": 0.7544933791068229,
    "upkeep_keep": 2.566229423635197,
    "unit_reserve": 0.9577327711415293,
    "unit_crowd": 1.2618413919492006,
    "deploy_base": 5.702861221045763,
    "deploy_goal": 0.3520275462555542,
    "spell_cost": 0.47997945316776347,
    "perm_cost": 0.6879320333055191,
    "convert_keep": 2.2853598886787205,
    "resource": 1.718345846389438,
    "goal_pull": 1.6331623794036594,
    "danger_fear": 0.0981710191353789,
    "area_pull": 2.2369138959393475,
    "income_pull": 4.986129480479878,
    "attack_look": 1.0358980993209896,
    "attack_bias": 0.5701373538513926,
    "kill_bonus": 4.578958435543499,
    "hurt": 0.6690905626507866,
    "objective_hit": 2.7216888283156,
    "retaliation": 0.658308747157099,
    "free_bias": -1.1408631850011084,
}
