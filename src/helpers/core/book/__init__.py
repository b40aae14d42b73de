"""The machinery that builds the book and runs its chapters, which no study needs for its
statistics: the command line, kernels, notebook runs, the build, result files, figures, tables,
findings and the words of pages (``pages/``), the student edition and standalone exports."""
