"""Training: the agents' learned data (the tuned agent's weights, the learned agent's model),
produced by `workbench train-agent` and written as data beside the engine's agents.
"""
