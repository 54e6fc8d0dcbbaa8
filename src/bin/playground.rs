//! `?lesson=playground` in the built site: this page alone, naga with it, so no other page downloads naga.
syncscope::page_main!("playground", playground);
