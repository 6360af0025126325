"""Default bounds shared by the engine and the command line (no imports: the command line
reads them before it loads anything else)."""

#: the default bound on the decisions of one match: no shipped game comes near it (the
#: longest match measured with random bots took 16,701 decisions; see test_conformance)
MAX_DECISIONS = 200_000
