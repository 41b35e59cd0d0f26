"""The benchmarks of ``cli.py bench``: appends and replay (:mod:`.appends`), CPU per event
(:mod:`.cpu`), ours and the ``eventsourcing`` library alternated (:mod:`.interleaved`, :mod:`.peer`), the
integrator's merge delay (:mod:`.merge`) and the import of a large file (:mod:`.imports`)."""
