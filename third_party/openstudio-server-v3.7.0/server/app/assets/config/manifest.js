//= link_tree ../images
//= link_directory ../javascripts .js
//= link_directory ../stylesheets .css
