"""Bot tournaments and matches: ``hexkit match`` (:mod:`~hexkit.tournament.match`), who
plays whom (:mod:`~hexkit.tournament.pairings`), one
game played and adjudicated from plain data (:mod:`~hexkit.tournament.referee`), where games
are played (:mod:`~hexkit.tournament.backends` chooses: this process or local worker
processes in :mod:`~hexkit.tournament.local`, or Ray in
:mod:`~hexkit.tournament.ray_backend`; what they share in
:mod:`~hexkit.tournament.protocol`), the results store (:mod:`~hexkit.tournament.store`), ratings
(:mod:`~hexkit.tournament.ratings`) and the report (:mod:`~hexkit.tournament.report`).

Nothing here imports Ray or openskill until it is used.
"""
