"""AI players: they see one seat's view and nothing else."""
