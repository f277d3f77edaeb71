"""What only the lessons need: display and saving of tables and charts, the charts themselves,
the lessons' scenarios (lesson 06's edits, a re-runnable story),
and the machinery that executes the lessons and checks their outputs. The exercises' checkers
are :mod:`lab.exercises`. The library never imports this package.

>>> from lab.course import notebook, save_table, save_figure
"""

from lab.course import notebook
from lab.course.chunk_tables import (chunk_totals, chunks_per_file, count_formula_check, input_limit_table, page_table,
                                     strategy_summary, table_by_type, word_window_summary)
from lab.course.edits import afternoon_edits, apply_edits
from lab.course.figures import save_figure
from lab.course.indexing_runs import IndexerRun, schedule_comparison, summarise_run
from lab.course.paths import index_dir, samples_dir
from lab.course.plots import (chunk_map_chart, context_growth_chart, method_comparison_chart, precision_at_k_chart,
                              requests_per_second_chart, similarity_heatmap, size_histograms, strategy_size_chart,
                              window_fill_chart)
from lab.course.tables import save_table

__all__ = ["notebook", "afternoon_edits", "apply_edits", "save_figure", "IndexerRun",
           "schedule_comparison", "summarise_run", "index_dir", "samples_dir", "chunk_map_chart",
           "context_growth_chart", "method_comparison_chart", "precision_at_k_chart", "requests_per_second_chart",
           "similarity_heatmap", "size_histograms", "strategy_size_chart", "window_fill_chart", "save_table",
           "page_table", "table_by_type", "chunk_totals", "count_formula_check", "chunks_per_file", "strategy_summary",
           "word_window_summary", "input_limit_table"]
