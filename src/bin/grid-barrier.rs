//! `?lesson=grid-barrier` in the built site: this page alone, so its reader downloads nothing else.
syncscope::page_main!("grid-barrier", grid_barrier);
